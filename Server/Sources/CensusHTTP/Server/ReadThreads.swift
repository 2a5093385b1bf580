import CensusStore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The threads the read side works on: certifying a trace, building a timeline, reading and
/// encoding a report.
///
/// Hummingbird runs route handlers on Swift's shared threads, one per core, which also carry
/// every request that is not a ping (batches, viewability, traces, AMP, `/healthz`) while the
/// event loops, one per core too, take the pings. A read is CPU-bound for as long as its session
/// or report is large (a 20,000-entry trace is decoded, certified and encoded; the dashboard
/// certifies every session it lists), and the census's readers hold a token but its data does
/// not: a sender decides how large a session is. On a small machine two such reads would take
/// every shared thread and the second core with them. So reads run here instead, on a bounded
/// pool (half the cores, one to two threads, started at the first read): a slow report waits
/// behind other reads, never ingest behind a report. Their tasks prefer these threads as their
/// executor, so everything a read does between its database awaits (decoding rows, evaluating,
/// encoding the answer) runs here; the database work itself runs where it always does.
package final class ReadThreads: Sendable {
    /// How many threads: at most half the cores, so ingest always has the rest.
    package static let standardCount = min(2, max(1, System.coreCount / 2))

    private let count: Int
    private let pool = NIOLockedValueBox<NIOThreadPool?>(nil)

    package init(count: Int = ReadThreads.standardCount) {
        self.count = max(1, count)
    }

    deinit {
        pool.withLockedValue { $0 }?.shutdownGracefully { _ in }
    }

    /// Runs `operation` with its work, between awaits, on the read threads (where the platform
    /// has task executors: Linux, and Apple's systems from macOS 15), else where it was called.
    package func run<Result>(_ operation: () async throws -> Result) async throws -> Result {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            return try await withTaskExecutorPreference(self, operation: operation)
        }
        return try await operation()
    }

    /// The pool, started at its first use: a server that is never read from (most tests, `meter
    /// demo`'s ingest) starts no thread.
    fileprivate var started: NIOThreadPool {
        pool.withLockedValue { pool in
            if let pool { return pool }
            let started = NIOThreadPool(numberOfThreads: count)
            started.start()
            pool = started
            return started
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension ReadThreads: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // A pool already shut down runs the item at once, as cancelled: the job runs anyway,
        // here, rather than leave its task waiting forever.
        started.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
