import Foundation

/// Delivers queued pings promptly when the app goes to the background (iOS and tvOS may suspend
/// it soon after), instead of waiting out a retry backoff.
///
/// Observes the UIKit notification by its name, so this file needs no UIKit import; on platforms
/// without UIKit nothing posts it. Started once, by the first instance.
enum AppLifecycleObserver {
    private static let started = Locked(false)
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

    static func startObserving() {
        let first = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        NotificationCenter.default.addObserver(forName: didEnterBackground, object: nil, queue: nil) { _ in
            for queue in DeliveryQueueRegistry.all {
                Task { await queue.deliverPromptly() }
            }
        }
    }
}
