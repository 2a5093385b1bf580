import CensusStore
import Foundation
import Logging

/// The access log's lines between the event loops that make them and the one thread that writes
/// them (census-decisions.md S46): a request hands its line over under a lock and goes on, so a
/// slow log reader (a full pipe, journald under load) never stalls the census's event loops. The
/// writer is woken only by a line that finds the queue empty, then lets lines gather for
/// ``gathering`` and writes them all: a few wake-ups a second under load, none while idle. At most
/// ``capacity`` lines wait; past that a line is dropped, and the writer says how many were once it
/// catches up.
final class AccessLogQueue: @unchecked Sendable {
    /// How many lines may wait: about a second of pings at the census's rate on two cores.
    static let capacity = 32_768
    /// How long the writer lets lines gather once woken: how late a line may appear in the log.
    static let gathering: TimeInterval = 0.05

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [AccessLogLine] = []
    private var dropped = 0
    private var writing = false
    private var closed = false

    /// Starts the writer, which ends once the queue is closed and drained.
    init(output: AccessLogOutput) {
        let thread = Thread { [self] in self.writeUntilClosed(output) }
        thread.name = "access-log"
        thread.start()
    }

    /// Queues `line`, or counts it as dropped when ``capacity`` lines wait.
    func submit(_ line: AccessLogLine) {
        condition.lock()
        if waiting.count < Self.capacity {
            waiting.append(line)
            if waiting.count == 1 { condition.signal() }
        } else {
            dropped += 1
        }
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

    private func writeUntilClosed(_ output: AccessLogOutput) {
        var writer = output.makeWriter()
        while true {
            condition.lock()
            while waiting.isEmpty && !closed { condition.wait() }
            if waiting.isEmpty && closed {
                condition.unlock()
                return
            }
            let gather = !closed
            condition.unlock()
            if gather { Thread.sleep(forTimeInterval: Self.gathering) }

            condition.lock()
            let batch = waiting
            let lost = dropped
            waiting.removeAll(keepingCapacity: true)
            dropped = 0
            writing = true
            condition.unlock()

            writer.write(batch, dropped: lost)

            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
