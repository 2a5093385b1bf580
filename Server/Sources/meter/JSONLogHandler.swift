import ArgumentParser
import Foundation
import Logging

/// How `meter serve` writes its log: lines for a person, or one JSON object a line for a log
/// collector (`--log-format json`).
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Decodable {
    case text
    case json
}

/// One JSON object a line on standard error: `time` (ISO 8601, UTC, milliseconds), `level`,
/// `label`, `message`, `source` and the metadata's keys under `metadata`, every value a string.
/// Messages and metadata can carry what a client sent (a refused ping's reason): JSON's escaping
/// keeps each entry on its one line.
struct JSONLogHandler: LogHandler {
    private struct Entry: Encodable {
        var time: String
        var level: String
        var label: String
        var message: String
        var source: String
        var metadata: [String: String]?
    }

    private static let output = FileHandle.standardError
    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let lock = NSLock()
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        let entry = Entry(time: Date().formatted(Self.timeFormat),
                          level: event.level.rawValue, label: label, message: event.message.description, source: event.source,
                          metadata: merged.isEmpty ? nil : merged.mapValues { $0.description })
        Self.lock.lock()
        defer { Self.lock.unlock() }
        guard let line = try? Self.encoder.encode(entry) else { return }
        Self.output.write(line + Data("\n".utf8))
    }
}
