import Foundation
import Testing

/// No census type is a god type (docs/architecture.md, "The census"): each type of the census's
/// targets, counted with all its extensions, stays within 300 lines and 8 stored properties.
/// Rows are the one exception: a value whose fields are a stored row's or a wire format's
/// columns has as many as the format has, each listed below with the format it mirrors.
@Suite struct TypeShapeTests {
    static let maxLines = 300
    static let maxStoredProperties = 8

    /// Values with one field per column of a table or a JSON format, and no behaviour to split.
    static let rows: [String: String] = [
        "IncomingPing": "a census_pings row as validated, before it is stored",
        "StoredPing": "a census_pings row as read",
        "CreditRow": "a line of GET /api/v1/report",
        "ViewabilityRow": "a line of GET /api/v1/report/viewability",
        "IncomingViewability": "a census_viewability row as validated",
        "TimelineSegment": "a segment of GET /api/v1/sessions/{session}/trace",
        "SessionListRow": "a line of GET /api/v1/sessions",
        "BrowserConfiguration": "the browser SDK's configuration file's JSON",
        "CensusCounters": "the counters of GET /api/v1/stats",
        "ConnectionCounters": "the connection counters of GET /api/v1/stats",
        "AMPReplayState": "a Google AMP page view's replay, stored as JSON (census-decisions.md AMP8)",
    ]

    static let targets = ["CensusStore", "CensusSQLite", "CensusPostgres", "CensusHTTP", "MeterTables"]

    struct Shape: Sendable { var lines = 0; var storedProperties = 0 }

    /// Each top-level type's lines (its declaration and every extension of it) and stored
    /// properties, read from the census's sources.
    static func shapes() throws -> [String: Shape] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var texts: [String] = []
        for target in targets {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                texts.append(try String(contentsOf: file, encoding: .utf8))
            }
        }
        return try shapes(of: texts)
    }

    /// Each top-level type's lines and stored properties in `files`' texts.
    static func shapes(of files: [String]) throws -> [String: Shape] {
        var shapes: [String: Shape] = [:]
        let declaration = try Regex(#"^(?:[a-z@]\w*(?:\([^)]*\))? )*(struct|class|actor|enum|extension) (\w+)"#)
        let property = try Regex(#"^    (?:@\w+(?:\([^)]*\))? )*(?:(?:private|fileprivate|package|public|internal|nonisolated|weak|unowned|lazy|final)(?:\(set\))? )*(?:let|var) \w+"#)
        for text in files {
            let lines = text.components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                guard let match = lines[index].firstMatch(of: declaration) else { index += 1; continue }
                let isExtension = match.output[1].substring == "extension"
                let name = String(match.output[2].substring ?? "")
                var depth = 0, end = index, stored = 0
                repeat {
                    let line = lines[end]
                    let atTop = depth == 1
                    depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
                    // A stored property: declared in the type's own body (not an extension's, which
                    // cannot hold one), not static, not computed.
                    if atTop, !isExtension, line.firstMatch(of: property) != nil, !line.contains("static "),
                       !line.hasSuffix("{"), !line.contains("{ get"), !(line.contains(" var ") && line.contains(" { ")) {
                        stored += 1
                    }
                    end += 1
                } while depth > 0 && end < lines.count
                shapes[name, default: Shape()].lines += end - index
                shapes[name, default: Shape()].storedProperties += stored
                index = end
            }
        }
        return shapes
    }

    @Test func noCensusTypeIsAGodType() async throws {
        let shapes = try await offThePool { try Self.shapes() }
        #expect(shapes["CensusServer"] != nil && shapes["PingStore"] != nil, "the sources were not found")
        for (name, shape) in shapes.sorted(by: { $0.key < $1.key }) {
            #expect(shape.lines <= Self.maxLines, "\(name): \(shape.lines) lines with its extensions; at most \(Self.maxLines)")
            if Self.rows[name] == nil {
                #expect(shape.storedProperties <= Self.maxStoredProperties,
                        "\(name): \(shape.storedProperties) stored properties; at most \(Self.maxStoredProperties), or a row listed with its format")
            }
        }
    }

    /// The reader counts what it should: a planted god type, its extension in another file, is caught,
    /// and computed and static properties are not counted as stored.
    @Test func theCountCatchesAPlantedGodType() throws {
        let planted = """
            package struct Planted: Sendable {
                let a: Int
                private var b = 0
                package let c: String
                var d: [Int] = []
                let e, f: Int
                var g: Int?
                package private(set) var h = 1
                @TaskLocal static var i = 0
                var computed: Int { a + b }
                var j: Int
                let m: Int
                static let k = 2
                var l: Int {
                    a
                }
            }
            """
        let filler = (0..<290).map { "    func f\($0)() {}" }.joined(separator: "\n")
        let shapes = try Self.shapes(of: [planted, "extension Planted {\n\(filler)\n}"])
        // a, b, c, d, g, h, j, m and the line of e and f (a line counts once): nine, one too many.
        #expect(shapes["Planted"]?.storedProperties == 9)
        #expect((shapes["Planted"]?.lines ?? 0) > Self.maxLines)
        for row in Self.rows.keys {
            #expect(try Self.shapes()[row] != nil, "\(row) is listed as a row but no longer exists")
        }
    }
}
