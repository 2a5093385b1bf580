import CensusStore
import NIOCore

/// Runs tasks on one NIO event loop: the loop that also carries the database connections those
/// tasks talk to.
///
/// A group-commit writer on Swift's shared threads hands every batch to its connection's event
/// loop and is handed the commit's answer back, two thread switches a batch; on loops busy with
/// HTTP, each waited behind the requests being read. With the writer and its connections on one
/// loop of their own, the answer is read and the next batch sent on the same thread
/// (census-decisions.md S14; what it saved, in docs/performance.md).
final class EventLoopTaskExecutor: Sendable {
    /// The loop the tasks run on.
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Starts `operation` as a task that runs on ``eventLoop`` (where the platform has task
    /// executors: Linux, and Apple's systems from macOS 15 and iOS 18), else on Swift's shared
    /// threads, as before.
    func startTask(_ operation: @escaping @Sendable () async -> Void) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            Task(executorPreference: self) { await operation() }
        } else {
            Task { await operation() }
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension EventLoopTaskExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
