import AppMeter

/// Forwards engine events to the app's delegate without keeping the delegate or the API object
/// alive (both are held weakly, as the documented SDK does). `notify` calls the delegate methods of
/// the facade that owns the relay. Once the API object is gone (its release: event 2002), events
/// name a stand-in in the Initial state, never the deallocated object (decisions.md E2).
final class DelegateRelay: Sendable {
    /// Calls the delegate's methods for one event.
    typealias Notify = @Sendable (_ api: AnyObject, _ delegate: AnyObject, _ event: MeterEvent) -> Void
    /// Makes an Initial-state facade, which ignores every call.
    typealias StandIn = @Sendable () -> AnyObject

    // The weak references are only read and written under `refs`'s lock; the delegate is only
    // called, never mutated, from the engine's task.
    private struct References {
        weak var api: AnyObject?
        weak var delegate: AnyObject?
    }

    private let refs = Locked(References())
    let notify: Notify
    let standIn: StandIn

    init(notify: @escaping Notify, standIn: @escaping StandIn) {
        self.notify = notify
        self.standIn = standIn
    }

    func attach(api: AnyObject, delegate: AnyObject?) {
        refs.withLock {
            $0.api = api
            $0.delegate = delegate
        }
    }

    func deliver(_ event: MeterEvent) {
        let (api, delegate) = refs.withLock { ($0.api, $0.delegate) }
        guard let delegate else { return }
        // The API object is released (2002 and the release's last events): a stand-in, which the
        // delegate may keep without reviving anything.
        notify(api ?? standIn(), delegate, event)
    }
}

extension MeterEvent {
    /// The documented `NSDictionary` shape, as the delegate methods and `lastEventDict` carry it.
    var delegateDictionary: [AnyHashable: Any] {
        dictionary.reduce(into: [:]) { $0[$1.key] = $1.value }
    }
}
