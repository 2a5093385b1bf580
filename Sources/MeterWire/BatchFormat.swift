public import Foundation

/// `POST /cgi-bin/gn/batch`: a backlog of pings, one ping query string (the part after `?`) per
/// line, and the census's answer.
public enum BatchFormat {
    /// The most pings the SDK puts in one batch.
    public static let sdkMaxPings = 50
    /// The largest batch body the SDK sends, in bytes.
    public static let sdkMaxBytes = 65_536
    /// The largest batch body the census accepts (413 above).
    public static let censusMaxBytes = 262_144
    /// The most lines the census accepts in one batch (413 above).
    public static let censusMaxLines = 500

    /// The body for `queries` (each without its `?`).
    public static func body(queries: [String]) -> Data {
        Data(queries.joined(separator: "\n").utf8)
    }

    /// The ping queries of a body: lines end with LF or CRLF; blank lines are skipped and a
    /// leading `?` removed. A carriage return anywhere else (a body framed with CR alone would be
    /// read as one line, its pings lost) or bytes that are not UTF-8 refuse the whole body, with
    /// the line they are on: nothing of a body framed wrongly is stored.
    public static func queries<Body: BidirectionalCollection<UInt8>>(in body: Body) -> Result<[Substring], WireFormatError> {
        var queries: [Substring] = []
        for (index, line) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var query = line[...]
            if query.last == UInt8(ascii: "\r") { query = query.dropLast() }
            if query.contains(UInt8(ascii: "\r")) {
                return .failure(WireFormatError("batch line \(index + 1) has a carriage return that does not end it; lines end with LF or CRLF"))
            }
            if query.first == UInt8(ascii: "?") { query = query.dropFirst() }
            guard !query.isEmpty else { continue }
            let text = String(decoding: query, as: UTF8.self)
            guard text.utf8.elementsEqual(query) else {
                return .failure(WireFormatError("batch line \(index + 1) is not UTF-8"))
            }
            queries.append(text[...])
        }
        return .success(queries)
    }
}

/// The census's answer to a batch: how many lines were stored, were already stored, or were
/// refused and why.
public struct BatchAnswer: Sendable, Equatable, Codable {
    /// One refused line.
    public struct Rejection: Sendable, Equatable, Codable {
        /// The line number, from 1.
        public var line: Int
        /// Why it was refused.
        public var reason: String

        /// Creates a rejection.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// Lines stored for the first time.
    public var stored: Int
    /// Lines whose ping id was already stored.
    public var duplicates: Int
    /// Lines refused.
    public var rejected: [Rejection]

    /// Creates an answer.
    public init(stored: Int, duplicates: Int, rejected: [Rejection]) {
        self.stored = stored
        self.duplicates = duplicates
        self.rejected = rejected
    }
}
