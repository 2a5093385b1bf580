import AppMeter

/// Forwards engine events to the app's delegate without keeping the delegate or the API object
/// alive (both are held weakly, as the documented SDK does). `notify` calls the delegate methods of
/// the facade that owns the relay.
final class DelegateRelay: Sendable {
    /// Calls the delegate's methods for one event.
    typealias Notify = @Sendable (_ api: AnyObject, _ delegate: AnyObject, _ event: MeterEvent) -> Void

    // The weak references are only read and written under `refs`'s lock; the delegate is only
    // called, never mutated, from the engine's task.
    private struct References {
        weak var api: AnyObject?
        weak var delegate: AnyObject?
    }

    private let refs = Locked(References())
    let notify: Notify

    init(notify: @escaping Notify) {
        self.notify = notify
    }

    func attach(api: AnyObject, delegate: AnyObject?) {
        refs.withLock {
            $0.api = api
            $0.delegate = delegate
        }
    }

    func deliver(_ event: MeterEvent) {
        let (api, delegate) = refs.withLock { ($0.api, $0.delegate) }
        guard let api, let delegate else { return }
        notify(api, delegate, event)
    }
}

extension MeterEvent {
    /// The documented `NSDictionary` shape, as the delegate methods and `lastEventDict` carry it.
    var delegateDictionary: [AnyHashable: Any] {
        dictionary.reduce(into: [:]) { $0[$1.key] = $1.value }
    }
}
