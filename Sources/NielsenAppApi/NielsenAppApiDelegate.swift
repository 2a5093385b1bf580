import AppMeter

#if canImport(ObjectiveC)
public import Foundation

/// Receives the events and errors of a ``NielsenAppApi`` instance: the original header's
/// `NielsenAppApiDelegate` protocol (`NSObjectProtocol`, both methods optional), so Objective-C and
/// Swift delegates written against the original SDK are called unchanged. A Swift delegate is an
/// `NSObject` subclass, as the guides' view controllers are; the form Xcode wrote for older,
/// unannotated headers (`NielsenAppApi!`, `[AnyHashable: Any]!`) is the same method (decision O1).
///
/// Calls arrive in order on an SDK-owned background task, never on the caller's thread; hop to
/// the main actor before touching UI.
@objc public protocol NielsenAppApiDelegate: NSObjectProtocol {
    /// An event occurred: the dictionary has `eventCode`/`EventStatus` (Int, e.g. 2001 startup),
    /// `eventDescription`/`Event Description` (String) and `timestamp` (Date)/`TimeStamp` (String).
    @objc(nielsenAppApi:eventOccurred:)
    optional func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any])
    /// An error occurred: same keys as events, with the error codes 1–15 and 1001–1007.
    @objc(nielsenAppApi:errorOccurred:)
    optional func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any])
}

/// Calls the delegate method of one event: the one the delegate implements, if any.
enum NielsenAppApiDelegateCall {
    static let notify: DelegateRelay.Notify = { api, delegate, event in
        guard let api = api as? NielsenAppApi, let delegate = delegate as? any NielsenAppApiDelegate else { return }
        let dictionary = event.delegateDictionary
        if event.code.isEvent {
            delegate.nielsenAppApi?(api, eventOccurred: dictionary)
        } else {
            delegate.nielsenAppApi?(api, errorOccurred: dictionary)
        }
    }
}
#else
/// Receives the events and errors of a ``NielsenAppApi`` instance. Every method is optional:
/// implement the ones you need, in either form.
///
/// Two forms of each callback exist so that code written against the original SDK compiles and is
/// called unchanged: the plain-typed form, and the form Xcode writes when the Objective-C protocol
/// is imported into Swift (`NielsenAppApi!`, `[AnyHashable: Any]!`). The SDK calls both forms of
/// a callback once per event; the one you did not implement does nothing. (Implement one form per
/// callback, or you hear each event twice.) On Apple platforms the protocol is the original's
/// Objective-C protocol, where the two forms are one method (decision O1).
///
/// Calls arrive in order on an SDK-owned background task, never on the caller's thread; hop to
/// the main actor before touching UI.
public protocol NielsenAppApiDelegate: AnyObject {
    /// An event occurred: the dictionary has `eventCode`/`EventStatus` (Int, e.g. 2001 startup),
    /// `eventDescription`/`Event Description` (String) and `timestamp` (Date)/`TimeStamp` (String).
    func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any])
    /// An error occurred: same keys as events, with the error codes 1–15 and 1001–1007.
    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any])
    /// An event occurred (the form of the original SDK's imported protocol).
    func nielsenAppApi(_ appApi: NielsenAppApi!, eventOccurred event: [AnyHashable: Any]!)
    /// An error occurred (the form of the original SDK's imported protocol).
    func nielsenAppApi(_ appApi: NielsenAppApi!, errorOccurred error: [AnyHashable: Any]!)
}

extension NielsenAppApiDelegate {
    /// Does nothing; implement it to hear about events.
    public func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any]) {}
    /// Does nothing; implement it to hear about errors.
    public func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) {}
    /// Does nothing; implement it to hear about events.
    public func nielsenAppApi(_ appApi: NielsenAppApi!, eventOccurred event: [AnyHashable: Any]!) {}
    /// Does nothing; implement it to hear about errors.
    public func nielsenAppApi(_ appApi: NielsenAppApi!, errorOccurred error: [AnyHashable: Any]!) {}
}

/// Calls both forms of the delegate method of one event: the one the app implemented runs, the
/// other is the protocol's no-op.
enum NielsenAppApiDelegateCall {
    static let notify: DelegateRelay.Notify = { api, delegate, event in
        guard let api = api as? NielsenAppApi, let delegate = delegate as? any NielsenAppApiDelegate else { return }
        let dictionary = event.delegateDictionary
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
#endif
