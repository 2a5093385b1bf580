import ArgumentParser
import Configuration
import Logging

/// A type a setting can have. Every source is read through the type's command-line parser
/// (`ExpressibleByArgument`), so a value means the same from a flag, the environment or the file.
protocol SettingValue: ExpressibleByArgument {
    /// How the config file holds it (a JSON number, string or boolean).
    static var configType: ConfigType { get }
    /// What a value that does not parse should have been, for the refusal.
    static var expected: String { get }
}

extension SettingValue {
    static var expected: String {
        allValueStrings.isEmpty ? "a valid value" : "one of \(allValueStrings.joined(separator: ", "))"
    }
}

extension String: SettingValue {
    static var configType: ConfigType { .string }
    static var expected: String { "a string" }
}

extension Int: SettingValue {
    static var configType: ConfigType { .int }
    static var expected: String { "a whole number" }
}

extension Int64: SettingValue {
    static var configType: ConfigType { .int }
    static var expected: String { "a whole number" }
}

extension Double: SettingValue {
    static var configType: ConfigType { .double }
    static var expected: String { "a number" }
}

extension Bool: SettingValue {
    static var configType: ConfigType { .bool }
    static var expected: String { "true or false" }
}

extension Logger.Level: SettingValue {
    static var configType: ConfigType { .string }
}

extension LogFormat: SettingValue {
    static var configType: ConfigType { .string }
}
