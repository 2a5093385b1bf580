import Foundation

/// Tells an instance when the app goes to the background (iOS and tvOS may suspend it soon after),
/// so that its core asks the delivery queue to send at once rather than wait out a backoff.
///
/// Observes the UIKit notification by its name, so this file needs no UIKit import; on platforms
/// without UIKit nothing posts it.
final class AppLifecycleObserver: Sendable {
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

    private let token: Locked<(any NSObjectProtocol)?>

    /// Calls `onBackground` (on the posting thread) each time the app enters the background.
    init(onBackground: @escaping @Sendable () -> Void) {
        token = Locked(NotificationCenter.default.addObserver(
            forName: Self.didEnterBackground, object: nil, queue: nil) { _ in onBackground() })
    }

    deinit {
        if let token = token.withLock({ $0 }) { NotificationCenter.default.removeObserver(token) }
    }
}
