import Configuration
import Foundation
import ArgumentParser

/// Resolves `meter serve`'s settings: the flag when given, else the environment, else the config
/// file, else the default (docs/census.md, "Configuration"). Each value, from wherever it came, is
/// parsed as its flag is and checked by the same rule, and a refusal names its source and key.
///
/// The environment's name of a setting is `METER_` and its flag's name in capitals with dashes as
/// underscores (swift-configuration's key encoding of `meter.<flag>`); the file's key is the flag's
/// name. A key of the file no setting has is refused: a misspelt key would otherwise be ignored.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, *)
final class SettingResolver {
    private let environment: EnvironmentVariablesProvider
    private let file: (path: String, snapshot: JSONSnapshot, keys: [String])?
    private var known: Set<String> = []

    /// Reads the config file at `configFile`, if any: a missing or unreadable one is refused with
    /// exit 66, one that is not a JSON object with 65, both naming it.
    init(configFile: String?, environment variables: [String: String] = ProcessInfo.processInfo.environment) throws {
        environment = EnvironmentVariablesProvider(
            environmentVariables: variables,
            secretsSpecifier: .specific(Set(Self.secrets.map { Self.environmentName(of: $0) })))
        guard let path = configFile else {
            file = nil
            return
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw MeterFailure(.noInput, "cannot read the config file \(path): \((error as NSError).localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let snapshot = try? JSONSnapshot(data: data.bytes, providerName: path, parsingOptions: .default) else {
            throw MeterFailure(.data, "the config file \(path) is not a JSON object of settings ({\"port\": 8080, …})")
        }
        file = (path, snapshot, object.keys.sorted())
    }

    /// The settings whose values are never repeated in a message.
    static let secrets: Set<String> = ["token", "database", "read-database"]

    /// `METER_PORT` for `port`: what swift-configuration's environment provider reads for `meter.port`.
    static func environmentName(of name: String) -> String {
        "METER_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The value of the setting `name` (its flag's long name) and where it came from: `flag` when
    /// given, else the first source that has it, else `standard`. `check` returns what is wrong
    /// with a value (`"is not a port: …"`), or nil; a refusal is a usage error naming the source.
    func resolve<Value: SettingValue>(
        _ name: String, flag: Value?, standard: Value, check: (Value) -> String? = { _ in nil }
    ) throws -> (value: Value, source: SettingSource) {
        try resolve(name, flag: flag, check: check) ?? (standard, .standard)
    }

    /// As ``resolve(_:flag:standard:check:)`` for a setting with no default: nil when no source has it.
    func resolve<Value: SettingValue>(
        _ name: String, flag: Value?, check: (Value) -> String? = { _ in nil }
    ) throws -> (value: Value, source: SettingSource)? {
        guard let found = try find(name, flag: flag) else { return nil }
        try refuse(found, of: name, check: check)
        return (found.value, found.source)
    }

    /// Refuses the file's keys that no setting asked for; call after every setting is resolved.
    func refuseUnknownKeys() throws {
        guard let file, let unknown = file.keys.first(where: { !known.contains($0) }) else { return }
        throw MeterFailure(.usage, "\"\(unknown)\" in \(file.path) is not a setting of meter serve (the file's keys are its options' names, as `meter serve --help` lists them)")
    }

    /// A value found, where, and as it was written there (`0`, not the `0.0` it reads as).
    private typealias Found<Value> = (value: Value, source: SettingSource, text: String)

    private func refuse<Value>(_ found: Found<Value>, of name: String, check: (Value) -> String?) throws {
        guard let problem = check(found.value) else { return }
        let shown = found.source.naming(found.text, secret: Self.secrets.contains(name))
        throw MeterFailure(.usage, "\(shown) \(problem)")
    }

    private func find<Value: SettingValue>(_ name: String, flag: Value?) throws -> Found<Value>? {
        known.insert(name)
        if let flag { return (flag, .flag("--" + name), "\(flag)") }
        let secret = Self.secrets.contains(name)
        let variable = Self.environmentName(of: name)
        if let raw = try? environment.value(forKey: AbsoluteConfigKey(["meter", name]), type: .string).value?.content,
           case .string(let text) = raw {
            guard let value = Self.parsed(Value.self, text) else {
                throw MeterFailure(.usage, "\(SettingSource.environment(variable).naming(text, secret: secret)) is not \(Value.expected)")
            }
            return (value, .environment(variable), text)
        }
        guard let file else { return nil }
        let source = SettingSource.file(key: name, path: file.path)
        let content: ConfigContent?
        do { content = try file.snapshot.value(forKey: AbsoluteConfigKey([name]), type: Value.configType).value?.content } catch {
            throw MeterFailure(.usage, "\(source.name) is not \(Value.expected)")
        }
        guard let content else { return nil }
        let text = Self.text(of: content)
        guard let value = Value(argument: text) else {
            throw MeterFailure(.usage, "\(source.naming(text, secret: secret)) is not \(Value.expected)")
        }
        return (value, source, text)
    }

    /// An environment variable's text as `Value`; booleans also as `1`/`0`, `yes`/`no`, as the
    /// environment provider reads them.
    private static func parsed<Value: SettingValue>(_ type: Value.Type, _ text: String) -> Value? {
        if let value = Value(argument: text) { return value }
        guard Value.self == Bool.self else { return nil }
        switch text.lowercased() {
        case "1", "yes", "true": return true as? Value
        case "0", "no", "false": return false as? Value
        default: return nil
        }
    }

    private static func text(of content: ConfigContent) -> String {
        switch content {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        default: ""
        }
    }
}
