import CensusStore
import Foundation
import Logging

/// The access log's lines between the event loops that make them and the one thread that writes
/// them: a request hands its line over under a lock and goes on, so a slow log reader (a full
/// pipe, journald under load) never stalls the census's event loops. At most ``capacity`` lines
/// wait; past that a line is dropped, and the writer says how many were once it catches up.
final class AccessLogQueue: @unchecked Sendable {
    /// How many lines may wait: about a second of pings at the census's rate on two cores.
    static let capacity = 32_768

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [AccessLogLine] = []
    private var dropped = 0
    private var writing = false
    private var closed = false

    /// Starts the writer, which ends once the queue is closed and drained.
    init(logger: Logger) {
        let thread = Thread { [self] in self.writeUntilClosed(logger) }
        thread.name = "access-log"
        thread.start()
    }

    /// Queues `line`, or counts it as dropped when ``capacity`` lines wait.
    func submit(_ line: AccessLogLine) {
        condition.lock()
        if waiting.count < Self.capacity { waiting.append(line) } else { dropped += 1 }
        condition.signal()
        condition.unlock()
    }

    /// Waits (up to `seconds`) until every line queued so far is written.
    func flush(within seconds: Double = 5) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        while !waiting.isEmpty || writing, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Lets the writer finish what is queued and end.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func writeUntilClosed(_ logger: Logger) {
        while true {
            condition.lock()
            while waiting.isEmpty && !closed { condition.wait() }
            if waiting.isEmpty && closed {
                condition.unlock()
                return
            }
            let batch = waiting
            let lost = dropped
            waiting.removeAll(keepingCapacity: true)
            dropped = 0
            writing = true
            condition.unlock()

            if lost > 0 {
                logger.warning("access log: \(lost) lines dropped, the log's reader did not keep up")
            }
            for line in batch { line.write(to: logger) }

            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
