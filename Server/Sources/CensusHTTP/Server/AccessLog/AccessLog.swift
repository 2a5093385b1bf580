import CensusStore
package import Logging

/// The census's access log: one line per request through `logger` (docs/census.md §4f), with the
/// client's address in the form the operator chose. No log at all is a census without one.
package struct AccessLog: Sendable {
    /// The label of its lines, which `meter serve` writes at `info` whatever its `--log-level`:
    /// `--access-log` alone turns the access log on or off.
    package static let label = "Census.access"
    /// The source its lines name: the module that writes them.
    package static let source = "CensusHTTP"


    /// How much of the client's address a line shows.
    package var addresses: ClientAddressForm
    /// Where its own warnings go (a connection it could not join).
    package let logger: Logger
    private let writer: Writer

    /// An access log showing addresses as `addresses`, written to `output` by a thread of its own
    /// (``AccessLogQueue``), which ends when the last copy of this log is gone.
    package init(addresses: ClientAddressForm, output: AccessLogOutput) {
        self.addresses = addresses
        if case .logger(let logger) = output { self.logger = logger } else { self.logger = Logger(label: AccessLog.label) }
        writer = Writer(AccessLogQueue(output: output))
    }

    /// An access log showing addresses as `addresses`, each line through `logger`.
    package init(addresses: ClientAddressForm, logger: Logger = Logger(label: AccessLog.label)) {
        self.init(addresses: addresses, output: .logger(logger))
    }

    /// Hands `line` to the writer's thread.
    func write(_ line: AccessLogLine) {
        writer.queue.submit(line)
    }

    /// Waits (a few seconds at most) until every line so far is written: for tests, and for a
    /// census that stops.
    package func flush() {
        writer.queue.flush()
    }

    /// Closes the queue when the log is no longer used, so that its thread ends.
    private final class Writer: Sendable {
        let queue: AccessLogQueue
        init(_ queue: AccessLogQueue) { self.queue = queue }
        deinit { queue.close() }
    }
}

/// How much of a client's address the access log shows (census-decisions.md S36). The guides'
/// markets are in the EU, where a full address is personal data: it is cut or hashed unless the
/// operator asks for it whole.
package enum ClientAddressForm: String, Sendable, CaseIterable {
    /// IPv4 to its /24 (`203.0.113.0`), IPv6 to its /48 (`2001:db8:1::`): the network, not the device.
    case truncated
    /// A keyed hash of the whole address (16 hex digits), the key random per process: requests
    /// of one client can be told apart from another's within a run, and the 2³² IPv4 addresses
    /// cannot be hashed again to find one.
    case hashed
    /// The address as it is: only when the operator asks for it.
    case full
}
