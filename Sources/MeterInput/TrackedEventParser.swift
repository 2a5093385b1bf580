import Foundation
public import MeasurementCore
import MeterWire

/// Reads a `trackEvent` dictionary (the simplified guide "Handling JSON Metadata") into a
/// ``TrackedEvent``. Lenient where the samples are loose — empty or missing metadata objects,
/// numbers where strings are documented — and strict only where guessing would mis-credit: an
/// unknown `event` or `type` ignores the call.
public enum TrackedEventParser {
    /// Why a call is ignored.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        package let reason: String

        /// Creates a rejection.
        package init(reason: String) { self.reason = reason }
        /// The reason.
        public var description: String { reason }
    }

    /// The outcome: the event, plus the `optout` string (handled by the instance, which owns the
    /// privacy choice, before the event).
    public struct Parsed: Sendable, Equatable {
        /// The call, as the core takes it.
        public var event: TrackedEvent
        package var optOut: String?
    }

    /// Other spellings the guide and the header use, read as the keys the metadata table names when
    /// those are absent: `assetId` (the header's `TrackEventParamMetadataAssetId`) as `assetid`, and
    /// `channelname` (the guide's DTVR sample event) as `channelName`.
    static let otherSpellings = [("assetId", "assetid"), ("channelname", "channelName")]

    static func withDocumentedSpellings(_ values: [String: String]) -> [String: String] {
        var values = values
        for (other, documented) in otherSpellings where values[documented] == nil {
            guard let value = values[other] else { continue }
            values[documented] = value
            values[other] = nil
        }
        return values
    }

    /// Parses `object` for `market`.
    public static func parse(_ object: [String: Any], market: MarketProfile) -> Result<Parsed, Rejection> {
        guard let rawEvent = LenientValue.string(object["event"]), !rawEvent.isEmpty else {
            return .failure(Rejection(reason: "'event' is missing; expected playhead, pause, complete or adStop"))
        }
        guard let event = TrackedEvent.Event.allCases.first(where: { $0.rawValue.lowercased() == rawEvent.lowercased() }) else {
            return .failure(Rejection(reason: "'event' \"\(rawEvent)\" is not playhead, pause, complete or adStop"))
        }
        let rawType = LenientValue.string(object["type"]) ?? ""
        let subject: TrackedEvent.Subject
        if rawType.isEmpty {
            subject = .content
        } else if let known = TrackedEvent.Subject(rawValue: rawType.lowercased()) {
            subject = known
        } else {
            return .failure(Rejection(reason: "'type' \"\(rawType)\" is not content, ad or static"))
        }
        var tracked = TrackedEvent(event: event, subject: subject)
        let metadata = object["metadata"] as? [String: Any] ?? [:]
        if let values = strings(metadata["content"], "metadata.content", &tracked.issues).map(withDocumentedSpellings) {
            var content = values
            if !["content", "radio"].contains(content["type"]?.lowercased() ?? "") { content["type"] = "content" }
            tracked.content = MetadataParser.parse(content, market: market, tables: .simplified)
            tracked.channelName = values["channelName"]
            if values["assetName"] != nil { tracked.keysWithoutEffect.insert(.contentAssetName) }
            if values["section"] != nil { tracked.keysWithoutEffect.insert(.contentSection) }
        }
        if let values = strings(metadata["ad"], "metadata.ad", &tracked.issues).map(withDocumentedSpellings) {
            var ad = values
            if AdType(rawValue: ad["type"] ?? "") == nil { ad["type"] = AdType.ad.rawValue }
            tracked.ad = MetadataParser.parse(ad, market: market, tables: .simplified)
        }
        if let values = strings(metadata["static"], "metadata.static", &tracked.issues).map(withDocumentedSpellings) {
            var page = values
            page["type"] = "static"
            tracked.staticPage = MetadataParser.parse(page, market: market, tables: .simplified)
        }
        if let values = strings(object["ottData"], "ottData", &tracked.issues) {
            let (status, issues) = OTTStatus.parse(values)
            tracked.ott = status
            tracked.issues += issues.map { MetadataIssue(key: "ottData.\($0.key)", problem: $0.problem, code: $0.code) }
        }
        tracked.position = position(object["playheadPosition"], &tracked.issues)
        if let owner = LenientValue.string(object["id3Data"]), NielsenID3Tag.isNielsen(owner) {
            switch NielsenID3Tag.parse(owner) {
            case .success(let tag): tracked.id3 = tag
            case .failure(let problem):
                tracked.issues.append(MetadataIssue(key: "id3Data", problem: "\(problem.reason); tag ignored", code: .failedProcessID3))
            }
        }
        if object["buffering"] != nil { tracked.keysWithoutEffect.insert(.buffering) }
        if object["buttonEvent"] != nil { tracked.keysWithoutEffect.insert(.buttonEvent) }
        let optOut = LenientValue.string(object["optout"]).flatMap { $0.isEmpty ? nil : $0 }
        return .success(Parsed(event: tracked, optOut: optOut))
    }

    /// `playheadPosition`: a string of seconds (or Unix seconds), a number, or empty.
    private static func position(_ value: Any?, _ issues: inout [MetadataIssue]) -> Int64? {
        guard let raw = LenientValue.string(value)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if let whole = Int64(raw) { return whole }
        if let seconds = Double(raw), seconds.isFinite, abs(seconds) < 1e15 { return Int64(seconds.rounded(.down)) }
        issues.append(MetadataIssue(key: "playheadPosition", problem: "\"\(raw)\" is not a number of seconds; ignored",
                                    code: .invalidPlayheadPosition))
        return nil
    }

    /// A metadata object's values as strings (numbers and booleans in their string form); nil when
    /// the object is missing, null, an empty string or has no keys.
    private static func strings(_ value: Any?, _ key: String, _ issues: inout [MetadataIssue]) -> [String: String]? {
        guard let value, !(value is NSNull) else { return nil }
        if let empty = value as? String, empty.isEmpty { return nil }
        guard let object = value as? [String: Any] else {
            issues.append(MetadataIssue(key: key, problem: "is not an object; ignored", code: .failedParseMetadata))
            return nil
        }
        var values: [String: String] = [:]
        for (key, item) in object {
            if let string = LenientValue.string(item) { values[key] = string }
        }
        return values.isEmpty ? nil : values
    }
}
