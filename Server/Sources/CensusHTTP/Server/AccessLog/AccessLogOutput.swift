import Foundation
package import Logging

/// Where the access log's lines go (census-decisions.md S46).
package enum AccessLogOutput: Sendable {
    /// Each line through a swift-log logger, one call a line: for a host with a handler of its own.
    case logger(Logger)
    /// Formatted by the log's writer itself, as `meter serve`'s handler formats every other line,
    /// and written to standard error a batch to a write: what `meter serve` uses.
    case standardError(LogLineFormat)

    func makeWriter() -> AccessLogBatchWriter {
        switch self {
        case .logger(let logger): AccessLogBatchWriter(logger: logger, lines: nil)
        case .standardError(let format): AccessLogBatchWriter(logger: nil, lines: LogLineWriter(format: format))
        }
    }
}

/// The access log's writer thread's state: the logger, or the line format and one buffer kept
/// from batch to batch.
struct AccessLogBatchWriter {
    let logger: Logger?
    var lines: LogLineWriter?
    private var buffer: [UInt8] = []

    init(logger: Logger?, lines: LogLineWriter?) {
        self.logger = logger
        self.lines = lines
    }

    mutating func write(_ batch: [AccessLogLine], dropped: Int) {
        let warning = dropped > 0 ? "access log: \(dropped) lines dropped, the log's reader did not keep up" : nil
        if let logger {
            if let warning { logger.warning("\(warning)") }
            for line in batch { line.write(to: logger) }
            return
        }
        guard var lines else { return }
        buffer.removeAll(keepingCapacity: true)
        if let warning {
            lines.append(time: .now(), level: .warning, label: AccessLog.label, source: AccessLog.source, message: warning,
                         metadata: EmptyCollection(), to: &buffer)
        }
        for line in batch { line.append(to: &buffer, with: &lines) }
        self.lines = lines
        AccessLogOutput.writeToStandardError(buffer)
        // A large burst's buffer is not kept for the quiet that follows.
        if buffer.capacity > 1 << 20 { buffer = [] }
    }

}

extension AccessLogOutput {
    /// One writer to standard error at a time: a pipe takes a write of more than `PIPE_BUF` bytes
    /// (an access-log batch) in pieces, between which another thread's line would land mid-line.
    private static let standardError = NSLock()

    /// Writes all of `bytes` to standard error in as few `write` calls as it takes, going on after
    /// a partial write or a signal; gives up on any other error (a closed standard error has no one
    /// to tell). Whole: no other line written through here lands inside it.
    package static func writeToStandardError(_ bytes: [UInt8]) {
        standardError.lock()
        defer { standardError.unlock() }
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(STDERR_FILENO, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
