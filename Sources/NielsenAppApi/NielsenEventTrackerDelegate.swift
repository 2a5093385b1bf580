import AppMeter

#if canImport(ObjectiveC)
public import Foundation

/// Receives the events and errors of a ``NielsenEventTracker``: the header `NielsenEventTracker.h`'s
/// protocol (`NSObjectProtocol`, both methods optional, both arguments non-null). A Swift delegate is
/// an `NSObject` subclass (decision O1).
///
/// Calls arrive in order on an SDK-owned background task, never on the caller's thread; hop to
/// the main actor before touching UI.
@objc public protocol NielsenEventTrackerDelegate: NSObjectProtocol {
    /// An event occurred: `eventCode`/`EventStatus` (Int, e.g. 2001 startup),
    /// `eventDescription`/`Event Description` (String) and `timestamp` (Date)/`TimeStamp` (String).
    @objc(nielsenEventTracker:eventOccurred:)
    optional func nielsenEventTracker(_ api: NielsenEventTracker, eventOccurred event: [AnyHashable: Any])
    /// An error occurred: same keys as events, with the error codes 1–15 and 1001–1007.
    @objc(nielsenEventTracker:errorOccurred:)
    optional func nielsenEventTracker(_ api: NielsenEventTracker, errorOccurred error: [AnyHashable: Any])
}

/// Calls the delegate method of one event, if the delegate implements it.
enum NielsenEventTrackerDelegateCall {
    static let notify: DelegateRelay.Notify = { api, delegate, event in
        guard let api = api as? NielsenEventTracker, let delegate = delegate as? any NielsenEventTrackerDelegate
        else { return }
        if event.code.isEvent {
            delegate.nielsenEventTracker?(api, eventOccurred: event.delegateDictionary)
        } else {
            delegate.nielsenEventTracker?(api, errorOccurred: event.delegateDictionary)
        }
    }
}
#else
/// Receives the events and errors of a ``NielsenEventTracker`` (the header `NielsenEventTracker.h`:
/// both methods optional, both arguments non-null, so the Swift form is the imported one).
///
/// Calls arrive in order on an SDK-owned background task, never on the caller's thread; hop to
/// the main actor before touching UI.
public protocol NielsenEventTrackerDelegate: AnyObject {
    /// An event occurred: `eventCode`/`EventStatus` (Int, e.g. 2001 startup),
    /// `eventDescription`/`Event Description` (String) and `timestamp` (Date)/`TimeStamp` (String).
    func nielsenEventTracker(_ api: NielsenEventTracker, eventOccurred event: [AnyHashable: Any])
    /// An error occurred: same keys as events, with the error codes 1–15 and 1001–1007.
    func nielsenEventTracker(_ api: NielsenEventTracker, errorOccurred error: [AnyHashable: Any])
}

extension NielsenEventTrackerDelegate {
    /// Does nothing; implement it to hear about events.
    public func nielsenEventTracker(_ api: NielsenEventTracker, eventOccurred event: [AnyHashable: Any]) {}
    /// Does nothing; implement it to hear about errors.
    public func nielsenEventTracker(_ api: NielsenEventTracker, errorOccurred error: [AnyHashable: Any]) {}
}

/// Calls the delegate method of one event.
enum NielsenEventTrackerDelegateCall {
    static let notify: DelegateRelay.Notify = { api, delegate, event in
        guard let api = api as? NielsenEventTracker, let delegate = delegate as? any NielsenEventTrackerDelegate
        else { return }
        if event.code.isEvent {
            delegate.nielsenEventTracker(api, eventOccurred: event.delegateDictionary)
        } else {
            delegate.nielsenEventTracker(api, errorOccurred: event.delegateDictionary)
        }
    }
}
#endif
