import Foundation
import MeasurementCore

/// How the SDK reads a value documented as a string when an app passes a number or a boolean
/// (`1.0` → `"1.0"`, `false` → `"false"`): the facades' appInfo and `updateOTT`, and `trackEvent`.
package enum LenientValue {
    /// A string as it is, a number or boolean in its string form; nil for anything else.
    package static func string(_ value: Any?) -> String? {
        guard let value else { return nil }
        if let string = value as? String, !(value is NSNumber) { return string }
        return coerced(value)
    }

    /// A number or boolean in its string form (not a string); nil for anything else.
    package static func coerced(_ value: Any) -> String? {
        if type(of: value) == Bool.self { return (value as! Bool) ? "true" : "false" }
        if let number = value as? NSNumber, !(value is String) { return number.stringValue }
        return nil
    }
}
