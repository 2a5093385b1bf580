import Foundation
import NielsenAppApi
import Testing

/// Objective-C callers get the original headers' constants from NielsenAppApiObjC's header, Swift
/// callers from the NielsenAppApi module: the two lists name the same constants with the same values.
@Suite struct ObjectiveCConstantsTests {
    static var header: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/NielsenAppApiObjC/include/NielsenAppApiConstants.h")
    }

    /// `#define NAME @"value"` lines of the header.
    static func defines() throws -> [String: String] {
        let text = try String(contentsOf: header, encoding: .utf8)
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("#define ") {
            let parts = line.dropFirst("#define ".count).split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[1].hasPrefix("@\""), parts[1].hasSuffix("\"") else { continue }
            found[String(parts[0])] = String(parts[1].dropFirst(2).dropLast())
        }
        return found
    }

    /// The Swift constants, by name.
    static let swift: [String: String] = [
        "kNielsenWebClose": kNielsenWebClose,
        "TrackEventParamEvent": TrackEventParamEvent, "TrackEventParamType": TrackEventParamType,
        "TrackEventParamMetadata": TrackEventParamMetadata,
        "TrackEventParamPlayheadPosition": TrackEventParamPlayheadPosition,
        "TrackEventParamId3Data": TrackEventParamId3Data, "TrackEventParamOttData": TrackEventParamOttData,
        "TrackEventParamOptout": TrackEventParamOptout, "TrackEventParamBuffering": TrackEventParamBuffering,
        "TrackEventParamButtonEvent": TrackEventParamButtonEvent,
        "TrackEventParamEventPlayhead": TrackEventParamEventPlayhead, "TrackEventParamEventPause": TrackEventParamEventPause,
        "TrackEventParamEventComplete": TrackEventParamEventComplete, "TrackEventParamEventAdStop": TrackEventParamEventAdStop,
        "TrackEventParamTypeContent": TrackEventParamTypeContent, "TrackEventParamTypeAd": TrackEventParamTypeAd,
        "TrackEventParamTypeStatic": TrackEventParamTypeStatic,
        "TrackEventParamMetadataContent": TrackEventParamMetadataContent, "TrackEventParamMetadataAd": TrackEventParamMetadataAd,
        "TrackEventParamMetadataStatic": TrackEventParamMetadataStatic,
        "TrackEventParamMetadataAssetId": TrackEventParamMetadataAssetId,
        "TrackEventParamMetadataAdType": TrackEventParamMetadataAdType,
        "TrackEventParamAdTypePreroll": TrackEventParamAdTypePreroll, "TrackEventParamAdTypeMidroll": TrackEventParamAdTypeMidroll,
        "TrackEventParamAdTypePostroll": TrackEventParamAdTypePostroll,
        "TrackEventParamButtonPlay": TrackEventParamButtonPlay, "TrackEventParamButtonPause": TrackEventParamButtonPause,
        "TrackEventParamButtonResume": TrackEventParamButtonResume, "TrackEventParamButtonStop": TrackEventParamButtonStop,
        "TrackEventParamButtonForward": TrackEventParamButtonForward, "TrackEventParamButtonRewind": TrackEventParamButtonRewind,
    ]

    @Test func theObjectiveCHeaderDefinesEverySwiftConstantWithItsValue() throws {
        let defines = try Self.defines()
        #expect(defines == Self.swift)
        #expect(defines["kNielsenWebClose"] == "nielsen://close")
    }
}
