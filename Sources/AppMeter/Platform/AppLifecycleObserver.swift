import Foundation

/// Tells an instance when the app goes to the background and comes back (static pages pause, video
/// without picture-in-picture is interrupted, pings go out before iOS may suspend the app).
///
/// Observes the UIKit notifications by their names, so this file needs no UIKit import; on
/// platforms without UIKit nothing posts them, and apps call `appInBackground()` /
/// `appInForeground()` themselves.
final class AppLifecycleObserver: Sendable {
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")

    private let tokens: Locked<[any NSObjectProtocol]>

    /// Calls `onChange(false)` when the app enters the background and `onChange(true)` when it
    /// comes back, on the posting thread.
    init(center: NotificationCenter?, onChange: @escaping @Sendable (_ inForeground: Bool) -> Void) {
        self.center = center
        tokens = Locked(center.map { center in
            [
                center.addObserver(forName: Self.didEnterBackground, object: nil, queue: nil) { _ in onChange(false) },
                center.addObserver(forName: Self.willEnterForeground, object: nil, queue: nil) { _ in onChange(true) },
            ]
        } ?? [])
    }

    private let center: NotificationCenter?

    deinit {
        for token in tokens.withLock({ $0 }) { center?.removeObserver(token) }
    }
}
