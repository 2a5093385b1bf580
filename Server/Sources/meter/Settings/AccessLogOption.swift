import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Configuration

/// `meter serve --access-log`: the client's address truncated (the default), hashed, in full, or
/// no access log at all (docs/census.md §4f).
enum AccessLogOption: String, CaseIterable, ExpressibleByArgument, SettingValue {
    case truncated
    case hashed
    case full
    case off

    static var configType: ConfigType { .string }

    /// The census's access log for this option, written to standard error in `format`, or nil for
    /// none. Each call starts a log with a writer thread of its own: `meter serve` makes one.
    func makeAccessLog(format: LogFormat) -> AccessLog? {
        ClientAddressForm(rawValue: rawValue).map { AccessLog(addresses: $0, output: .standardError(format.lineFormat)) }
    }
}
