import AppMeter
import Foundation
import Testing

/// What a call hands its instance's task unread (decisions.md E12): Swift values as they are, at no
/// cost; the mutable Foundation containers an app could change after the call, as copies.
@Suite struct UntypedArgumentTests {
    static var event: [String: Any] { [
        "event": "playhead", "type": "content", "playheadPosition": "12",
        "metadata": ["content": ["assetid": "A1", "type": "content"], "ad": [String: String](), "static": ""] as [String: Any],
    ] }

    @Test func swiftValuesAreTakenWithoutACopy() {
        #expect(UntypedArgument.snapshot(of: Self.event, depth: UntypedArgument.depth) == nil)
        #expect(UntypedArgument.snapshot(of: Self.event as [AnyHashable: Any], depth: UntypedArgument.depth) == nil)
        #expect(UntypedArgument.snapshot(of: #"{"event":"playhead"}"#, depth: UntypedArgument.depth) == nil)
        #expect(UntypedArgument.snapshot(of: ["assetid": "A1"], depth: UntypedArgument.depth) == nil)
        #expect(UntypedArgument.snapshot(of: NSDictionary(dictionary: ["assetid": "A1"]), depth: UntypedArgument.depth) == nil)
    }

    @Test func mutableContainersDownToTheMetadataValuesAreCopied() throws {
        let value = NSMutableString(string: "A1")
        let content = NSMutableDictionary(dictionary: ["assetid": value])
        let array = NSMutableArray(array: ["x"])
        let event: [AnyHashable: Any] = ["event": "playhead", "list": array,
                                         "metadata": ["content": content] as [String: Any]]
        let argument = UntypedArgument(event)
        value.setString("changed")
        content["type"] = "changed"
        array.add("changed")
        let read = try #require(argument.value as? [AnyHashable: Any])
        let metadata = try #require(read["metadata"] as? [String: Any])
        let readContent = try #require(metadata["content"] as? [AnyHashable: Any])
        #expect(readContent.count == 1)
        #expect(readContent["assetid"] as? String == "A1")
        #expect((read["list"] as? [Any])?.count == 1)
    }

    @Test func nothingDeeperThanItsDepthIsLookedAt() {
        var nested: Any = NSMutableDictionary(dictionary: ["k": "v"])
        for _ in 0..<UntypedArgument.depth { nested = ["deeper": nested] as [String: Any] }
        #expect(UntypedArgument.snapshot(of: nested, depth: UntypedArgument.depth) == nil)
        var shallower: Any = NSMutableDictionary(dictionary: ["k": "v"])
        for _ in 0..<(UntypedArgument.depth - 1) { shallower = ["deeper": shallower] as [String: Any] }
        #expect(UntypedArgument.snapshot(of: shallower, depth: UntypedArgument.depth) != nil)
    }
}
