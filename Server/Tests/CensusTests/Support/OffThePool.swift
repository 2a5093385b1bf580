import Foundation

/// Runs `work` on a thread of its own and waits for it. Seconds of synchronous CPU (regular
/// expressions over every source file, 20,000 parses) on one of the two cooperative threads of a
/// 2-core machine left the other tests' census writes without a thread, and past the census's 5 s
/// answer bound at the start of a full run: `503` where a test expected `stored`.
func offThePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}
