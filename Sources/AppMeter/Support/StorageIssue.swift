/// A storage operation that failed, reported to the instance's delegate with its documented code:
/// 1002 (a file could not be written), 1003 (a file could not be read) or 13 (the ping store could
/// not be opened). The SDK goes on in memory.
package struct StorageIssue: Sendable, Equatable {
    /// 1002, 1003 or 13.
    package let code: MeterEventCode
    /// What failed and what the SDK does instead.
    package let message: String

    /// A value could not be written.
    package static func write(_ what: String, _ error: any Error, instead: String) -> StorageIssue {
        StorageIssue(code: .fileWriteFailure, message: "could not store \(what) (\(error)); \(instead)")
    }

    /// A value could not be read.
    package static func read(_ what: String, _ error: any Error, instead: String) -> StorageIssue {
        StorageIssue(code: .fileReadFailure, message: "could not read \(what) (\(error)); \(instead)")
    }

    /// The ping store could not be listed.
    package static func store(_ error: any Error) -> StorageIssue {
        StorageIssue(code: .failedAccessDatabase,
                     message: "could not open the ping store (\(error)); pings of earlier launches are not sent now, new pings are kept in memory")
    }
}
