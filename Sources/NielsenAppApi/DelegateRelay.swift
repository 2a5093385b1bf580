import AppMeter

/// Forwards engine events to the app's delegate without keeping the delegate or the API object
/// alive (both are held weakly, as the documented SDK does).
final class DelegateRelay: Sendable {
    // The weak references are only read and written under `refs`'s lock; the delegate is only
    // called, never mutated, from the engine's task.
    private struct References {
        weak var api: NielsenAppApi?
        weak var delegate: NielsenAppApiDelegate?
    }

    private let refs = Locked(References())

    func attach(api: NielsenAppApi, delegate: NielsenAppApiDelegate?) {
        refs.withLock {
            $0.api = api
            $0.delegate = delegate
        }
    }

    func deliver(_ event: MeterEvent) {
        let (api, delegate) = refs.withLock { ($0.api, $0.delegate) }
        guard let api, let delegate else { return }
        let dictionary = event.delegateDictionary
        // Both forms: the one the app implemented runs, the other is the protocol's no-op.
        let imported: NielsenAppApi? = api
        let importedDictionary: [AnyHashable: Any]? = dictionary
        if event.code.isEvent {
            delegate.nielsenAppApi(api, eventOccurred: dictionary)
            delegate.nielsenAppApi(imported, eventOccurred: importedDictionary)
        } else {
            delegate.nielsenAppApi(api, errorOccurred: dictionary)
            delegate.nielsenAppApi(imported, errorOccurred: importedDictionary)
        }
    }
}

extension MeterEvent {
    /// The documented `NSDictionary` shape, as the delegate methods and `lastEventDict` carry it.
    var delegateDictionary: [AnyHashable: Any] {
        dictionary.reduce(into: [:]) { $0[$1.key] = $1.value }
    }
}
