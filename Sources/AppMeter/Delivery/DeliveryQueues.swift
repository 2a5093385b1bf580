import Foundation

/// One delivery queue per (storage, collector) in a process, so that instances of an app share
/// one upload in flight per collector and a dead instance's pings are picked up by the next one.
final class DeliveryQueues: Sendable {
    private final class WeakQueue: Sendable {
        weak let queue: DeliveryQueue?
        init(_ queue: DeliveryQueue) { self.queue = queue }
    }

    private let queues = Locked([String: WeakQueue]())

    /// The live queue for `environment.storage` and `baseURL` (it opens itself on first attach).
    func queue(baseURL: URL, environment: MeterEnvironment) -> DeliveryQueue {
        let key = environment.storage.identity + "|" + baseURL.absoluteString
        return queues.withLock { queues in
            if let existing = queues[key]?.queue { return existing }
            let queue = DeliveryQueue(baseURL: baseURL, environment: environment)
            queues[key] = WeakQueue(queue)
            queues = queues.filter { $0.value.queue != nil }
            return queue
        }
    }
}
