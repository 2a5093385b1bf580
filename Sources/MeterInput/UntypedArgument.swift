import Foundation

/// An app's untyped argument (`trackEvent`'s dictionary, `loadMetadata`'s JSON string or
/// dictionary), handed unread from the caller's thread to the instance's runner, which reads it
/// there (decisions.md E12).
///
/// Swift strings, numbers, dictionaries and arrays are values: what the runner reads is what was
/// passed, whatever the app does next. A Foundation container the app keeps and changes after the
/// call — the simplified guide's Objective-C sample keeps one `NSMutableDictionary` and changes it
/// every second — is the exception, so any mutable `NSDictionary`, `NSArray` or `NSString` within
/// ``depth`` levels is replaced here, on the caller's thread, by a Swift copy. Finding none (the
/// common case) costs a type check per value and copies nothing.
package struct UntypedArgument: @unchecked Sendable {
    /// The argument, with its mutable Foundation containers copied.
    package let value: Any

    /// How deep mutable containers are looked for: the event, `metadata`, `content`, its values.
    package static let depth = 4

    /// Takes `value` for the runner.
    package init(_ value: Any) {
        self.value = Self.snapshot(of: value, depth: Self.depth) ?? value
    }

    /// Takes a dictionary for the runner, without the dynamic cast a dictionary passed as `Any`
    /// costs (a third of `trackEvent`'s instructions on the caller's thread).
    package init(_ dictionary: [String: Any]) {
        value = Self.entries(of: dictionary, depth: Self.depth, Kinds.shared) ?? dictionary
    }

    /// Takes a dictionary with `AnyHashable` keys (an `NSDictionary`) for the runner.
    package init(_ dictionary: [AnyHashable: Any]) {
        value = Self.entries(of: dictionary, depth: Self.depth, Kinds.shared) ?? dictionary
    }

    /// `value` with each mutable Foundation container within `depth` levels replaced by a Swift
    /// copy; nil when there is none, so the common case copies nothing.
    package static func snapshot(of value: Any, depth: Int) -> Any? {
        snapshot(of: value, depth: depth, Kinds.shared)
    }

    /// The types the walk tells apart, their metadata looked up once (a generic type's is a
    /// run-time call). Strings first: most values are; only a value of none of these types costs a
    /// dynamic cast (is it a class?).
    private struct Kinds {
        static let shared = Kinds()
        let stringKeyed: Any.Type = [String: Any].self
        let anyKeyed: Any.Type = [AnyHashable: Any].self
        let array: Any.Type = [Any].self
        let strings: Any.Type = [String: String].self
    }

    private static func snapshot(of value: Any, depth: Int, _ kinds: Kinds) -> Any? {
        guard depth > 0 else { return nil }
        let kind = type(of: value)
        if kind == String.self || kind == kinds.strings { return nil }
        if kind == kinds.stringKeyed { return entries(of: value as! [String: Any], depth: depth, kinds) }
        if kind == kinds.anyKeyed { return entries(of: value as! [AnyHashable: Any], depth: depth, kinds) }
        if kind == kinds.array { return elements(of: value as! [Any], depth: depth, kinds) }
        // Any other Swift value (numbers, Bool, other dictionaries) is a copy already.
        guard kind is AnyObject.Type else { return nil }
        if value is NSMutableString, let text = value as? String { return text }
        if value is NSDictionary, let dictionary = value as? [AnyHashable: Any] {
            let copy = entries(of: dictionary, depth: depth, kinds)
            return copy ?? (value is NSMutableDictionary ? dictionary : nil)
        }
        if value is NSArray, let array = value as? [Any] {
            let copy = elements(of: array, depth: depth, kinds)
            return copy ?? (value is NSMutableArray ? array : nil)
        }
        return nil
    }

    /// The values are looked at first, keys untouched; only when one needs a copy is the
    /// dictionary copied.
    private static func entries<Key: Hashable>(of dictionary: [Key: Any], depth: Int, _ kinds: Kinds) -> [Key: Any]? {
        guard dictionary.values.contains(where: { snapshot(of: $0, depth: depth - 1, kinds) != nil }) else { return nil }
        var copy = dictionary
        for (key, item) in dictionary {
            if let settled = snapshot(of: item, depth: depth - 1, kinds) { copy[key] = settled }
        }
        return copy
    }

    private static func elements(of array: [Any], depth: Int, _ kinds: Kinds) -> [Any]? {
        guard array.contains(where: { snapshot(of: $0, depth: depth - 1, kinds) != nil }) else { return nil }
        return array.map { snapshot(of: $0, depth: depth - 1, kinds) ?? $0 }
    }
}
