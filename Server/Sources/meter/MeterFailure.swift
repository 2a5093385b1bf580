import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation

/// Why a command could not do its job, for the operator: one sentence, no usage text (that is for
/// mistakes in the command line itself, which exit 64), and an exit code of `sysexits.h` that
/// says what kind of failure it was, so that scripts can tell them apart.
struct MeterFailure: Error, CustomStringConvertible {
    /// The failure's kind and exit code.
    enum Kind: Int32 {
        /// The command line is wrong in a way the parser cannot see (an unknown session id).
        case usage = 64
        /// The input is malformed (a file that is not an export).
        case data = 65
        /// An input file does not exist (a database to read).
        case noInput = 66
        /// A service is unavailable: the database, the port, a census or collector.
        case unavailable = 69
        /// An output file cannot be written (`certify --export` into a folder that does not exist).
        case cannotCreate = 73
    }

    var kind: Kind
    var message: String
    var description: String { message }

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Prints an error a command's `run` threw and exits with its code: a ``MeterFailure`` as it
    /// is, a late `ValidationError` or an unreadable database URL as a usage failure (without the
    /// usage text), undecodable input as data, a missing file as no input, a file that cannot be
    /// written as such, and anything else (the database, the network, a port) as unavailable,
    /// with its own description.
    static func exit(with error: any Error) -> Never {
        let failure: MeterFailure
        switch error {
        case let error as MeterFailure: failure = error
        case is ExitCode, is CleanExit: Meter.exit(withError: error)
        case let error as ValidationError: failure = MeterFailure(.usage, error.message)
        case let error as CensusError:
            switch error {
            case .badDatabaseURL: failure = MeterFailure(.usage, error.description)
            case .schemaNewer: failure = MeterFailure(.data, error.description)
            default: failure = MeterFailure(.unavailable, error.description)
            }
        case is DecodingError: failure = MeterFailure(.data, "\(error)")
        case let error as CocoaError where error.code == .fileReadNoSuchFile:
            failure = MeterFailure(.noInput, error.localizedDescription)
        case let error as CocoaError where error.isFileError:
            failure = MeterFailure(.cannotCreate, error.localizedDescription)
        default: failure = MeterFailure(.unavailable, String(describing: error))
        }
        FileHandle.standardError.write(Data("meter: \(TerminalText.escaped(failure.message))\n".utf8))
        Foundation.exit(failure.kind.rawValue)
    }
}
