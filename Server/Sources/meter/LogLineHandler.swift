import ArgumentParser
import CensusHTTP
import Foundation
import Logging

/// How `meter serve` writes its log: lines for a person, or one JSON object a line for a log
/// collector (`--log-format json`). Both are laid out by ``LogLineFormat``, which the access log's
/// writer shares.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Decodable {
    case text
    case json

    var lineFormat: LogLineFormat {
        switch self {
        case .text: .text
        case .json: .json
        }
    }
}

/// Writes each entry as one line on standard error, in a ``LogLineFormat``: metadata (the
/// handler's, the provider's, the call's, and an error's message and type) sorted by key, every
/// value as text.
struct LogLineHandler: LogHandler {
    /// One line at a time, from any thread: the writer's cached time and the buffer it fills.
    private final class Output: @unchecked Sendable {
        let lock = NSLock()
        var writers: [LogLineFormat: LogLineWriter] = [:]
        var buffer: [UInt8] = []
    }

    private static let output = Output()

    let label: String
    let format: LogLineFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, format: LogLineFormat) {
        self.label = label
        self.format = format
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pairs = merged.map { (key: $0.key, value: $0.value.description) }.sorted { $0.key < $1.key }
        let time = WallTime.now()
        let output = Self.output
        output.lock.lock()
        defer { output.lock.unlock() }
        var writer = output.writers[format] ?? LogLineWriter(format: format)
        output.buffer.removeAll(keepingCapacity: true)
        writer.append(time: time, level: event.level, label: label, source: event.source, message: event.message.description,
                      metadata: pairs, to: &output.buffer)
        output.writers[format] = writer
        AccessLogOutput.writeToStandardError(output.buffer)
    }
}
