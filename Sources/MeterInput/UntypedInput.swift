import Foundation

/// Why an API argument could not be read.
package enum InputError: Error, Equatable, CustomStringConvertible {
    case notJSONObject(found: String)
    case malformedJSON(String)
    case nonStringKey(String)
    case nonStringValue(key: String, found: String)

    package var description: String {
        switch self {
        case .notJSONObject(let found):
            "expected a JSON object string or a dictionary, got \(found)"
        case .malformedJSON(let reason):
            "the JSON string is malformed: \(reason)"
        case .nonStringKey(let key):
            "key \(key) is not a string"
        case .nonStringValue(let key, let found):
            "the value of '\(key)' is \(found); every value must be a string (write \"123\", \"true\")"
        }
    }
}

/// Reads the documented argument forms — a JSON object string or a dictionary — into a string
/// dictionary. Keys are case-sensitive and every value must be a string.
package enum UntypedInput {
    package static func stringDictionary(from input: Any) -> Result<[String: String], InputError> {
        if let ready = input as? [String: String] { return .success(ready) }
        return object(from: input).flatMap(strings)
    }

    /// The documented forms read into a dictionary: a JSON object string, a `[String: Any]`, or an
    /// `[AnyHashable: Any]` (an `NSDictionary`) whose keys are strings.
    package static func object(from input: Any) -> Result<[String: Any], InputError> {
        if let text = input as? String {
            guard let data = text.data(using: .utf8) else { return .failure(.malformedJSON("not UTF-8")) }
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                return .failure(.malformedJSON(shortReason(error)))
            }
            guard let dictionary = object as? [String: Any] else {
                return .failure(.notJSONObject(found: "JSON \(typeName(object))"))
            }
            return .success(dictionary)
        }
        if let dictionary = input as? [String: Any] { return .success(dictionary) }
        if let dictionary = input as? [AnyHashable: Any] {
            var converted: [String: Any] = [:]
            for (key, value) in dictionary {
                guard let name = key.base as? String else { return .failure(.nonStringKey("\(key)")) }
                converted[name] = value
            }
            return .success(converted)
        }
        return .failure(.notJSONObject(found: typeName(input)))
    }

    /// appInfo (or updateOTT's dictionary) in either form, leniently: a value that is not a string is reported and, when it is
    /// a number or a boolean, used in its string form (`1.0` → `"1.0"`, `false` → `"false"`), so
    /// that only an unusable appid stops measurement.
    package static func lenientDictionary(from input: Any) -> Result<(values: [String: String], problems: [String]), InputError> {
        if let ready = input as? [String: String] { return .success((ready, [])) }
        return object(from: input).map(lenientStrings)
    }

    private static func lenientStrings(from dictionary: [String: Any]) -> (values: [String: String], problems: [String]) {
        var values: [String: String] = [:]
        var problems: [String] = []
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]!
            if let string = value as? String, !(value is NSNumber) {
                values[key] = string
            } else if let text = LenientValue.coerced(value) {
                values[key] = text
                problems.append("the value of '\(key)' is \(typeName(value)); every value must be a string, read as \"\(text)\"")
            } else {
                problems.append("the value of '\(key)' is \(typeName(value)); every value must be a string, ignored")
            }
        }
        return (values, problems)
    }

    private static func strings(from dictionary: [String: Any]) -> Result<[String: String], InputError> {
        var result: [String: String] = [:]
        result.reserveCapacity(dictionary.count)
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]!
            guard let string = value as? String, !(value is NSNumber) else {
                return .failure(.nonStringValue(key: key, found: typeName(value)))
            }
            result[key] = string
        }
        return .success(result)
    }

    private static func typeName(_ value: Any) -> String {
        switch value {
        case is Bool: "a boolean"
        case is NSNumber, is Int, is Int64, is Double: "a number"
        case is NSNull: "null"
        case is [Any]: "an array"
        case is [String: Any], is [AnyHashable: Any]: "an object"
        case is String: "a string"
        default: "a value of type \(type(of: value))"
        }
    }

    private static func shortReason(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return String(text.prefix(200))
    }
}
