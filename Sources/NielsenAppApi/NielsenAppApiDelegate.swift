/// Receives the events and errors of a ``NielsenAppApi`` instance. Both methods are optional:
/// implement either, both or neither.
///
/// Calls arrive in order on an SDK-owned background task, never on the caller's thread; hop to
/// the main actor before touching UI.
public protocol NielsenAppApiDelegate: AnyObject {
    /// An event occurred: the dictionary has `eventCode` (Int, e.g. 2001 startup),
    /// `eventDescription` (String) and `timestamp` (Date).
    func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any])
    /// An error occurred: same keys as events, with the error codes 1–15 and 1001–1007.
    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any])
}

extension NielsenAppApiDelegate {
    /// Does nothing; implement it to hear about events.
    public func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any]) {}
    /// Does nothing; implement it to hear about errors.
    public func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) {}
}
