/// Receives the events and errors of a ``NielsenAppApi`` instance. Every method is optional:
/// implement the ones you need, in either form.
///
/// Two forms of each callback exist so that code written against the original SDK compiles and is
/// called unchanged: the plain-typed form, and the form Xcode writes when the Objective-C protocol
/// is imported into Swift (`NielsenAppApi!`, `[AnyHashable: Any]!`). The SDK calls both forms of
/// a callback once per event; the one you did not implement does nothing. (Implement one form per
/// callback, or you hear each event twice.)
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
