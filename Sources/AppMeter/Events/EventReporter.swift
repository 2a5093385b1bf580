import Foundation
import Logging

/// Records events and errors for an instance: updates the last event / last error, tells the
/// delegate, and logs. Written to by the instance's runner only (the core's report effects); the
/// delivery queue reports the outcomes of this instance's pings as `report` commands to it.
final class EventReporter: Sendable {
    private let snapshot: Locked<MeterSnapshot>
    private let sink: @Sendable (MeterEvent) -> Void
    private let logger: Locked<Logger>

    init(snapshot: Locked<MeterSnapshot>, logger: Logger, sink: @escaping @Sendable (MeterEvent) -> Void) {
        self.snapshot = snapshot
        self.sink = sink
        self.logger = Locked(logger)
    }

    /// The logger the instance writes to, at the level of `nol_devDebug` (or `debug`).
    var log: Logger { logger.withLock { $0 } }

    /// Changes the log level (the `debug` property).
    func setLogLevel(_ level: Logger.Level) {
        logger.withLock { $0.logLevel = level }
    }

    /// Records `code` with `description`, stamped `time`.
    func report(_ code: MeterEventCode, _ description: String, at time: MeterInstant) {
        let event = MeterEvent(code: code, description: description, timestamp: time.date)
        snapshot.withLock {
            if code.isEvent { $0.lastEvent = event } else { $0.lastError = event }
        }
        if code.isEvent {
            log.info("event \(code.rawValue): \(description)")
        } else {
            log.error("error \(code.rawValue): \(description)")
        }
        sink(event)
    }
}
