import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Random bits from the operating system's generator, for ping and session ids and the delivery
/// backoff's jitter.
///
/// On Linux, `SystemRandomNumberGenerator` makes one `getrandom` system call for every 8 bytes: a
/// ping id took two, a session id 32 and each upload's jitter one, ~190 calls in an hour of viewing
/// (docs/performance.md). There the bits come from `/dev/urandom` 512 bytes at a time, one read
/// per 64 words, shared by every instance under a lock. Elsewhere (Apple platforms'
/// `arc4random_buf` draws in user space) and wherever the device cannot be read, they come from
/// `SystemRandomNumberGenerator` itself.
package struct SystemRandomBits: RandomNumberGenerator {
    /// Creates a generator; every one draws from the same source.
    package init() {}

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        #if os(Linux)
        if let word = RandomBlock.shared?.next() { return word }
        #endif
        var system = SystemRandomNumberGenerator()
        return system.next()
    }
}

#if os(Linux)
/// 64 words read from `/dev/urandom` at once and handed out one at a time.
private final class RandomBlock: @unchecked Sendable {
    /// The process's block; nil where `/dev/urandom` cannot be opened.
    static let shared = RandomBlock()

    private static let wordCount = 64
    private let device: Int32
    private let lock = NSLock()
    private let words: UnsafeMutablePointer<UInt64>
    /// How many of `words` were handed out (all of them: the block must be read first).
    private var used = RandomBlock.wordCount

    private init?() {
        device = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard device >= 0 else { return nil }
        words = .allocate(capacity: Self.wordCount)
    }

    /// The next word; nil when the device could not be read whole (the caller asks the system's
    /// generator instead).
    func next() -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        if used == Self.wordCount {
            guard fill() else { return nil }
            used = 0
        }
        let word = words[used]
        // Handed out once: nothing later reads it from here.
        words[used] = 0
        used += 1
        return word
    }

    /// Reads a whole block (a read of `/dev/urandom` this small is never short but on a signal).
    private func fill() -> Bool {
        let size = Self.wordCount * MemoryLayout<UInt64>.size
        var filled = 0
        while filled < size {
            let count = read(device, UnsafeMutableRawPointer(words) + filled, size - filled)
            if count > 0 {
                filled += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
#endif
