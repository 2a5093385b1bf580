import Foundation

/// A value guarded by a lock, for the few places where a caller's thread must read or write
/// shared state synchronously (the package facade's snapshot, the instance registry).
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18; an `NSLock` keeps the
/// engine usable on older deployment targets and costs a few tens of nanoseconds.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// The value, at an address of its own: reached through a pointer under the lock, it costs
    /// none of the run-time exclusivity checks (a thread-local access set) that every access to a
    /// class's stored `var` pays, a fifth of a `playheadPosition` call's instructions (callgrind).
    private let storage: UnsafeMutablePointer<Value>

    /// Creates a lock-guarded box holding `value`.
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lockedAccess(body)
    }

    @usableFromInline
    func lockedAccess<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage.pointee)
    }
}
