import ArgumentParser
import Census
import MeterWire

struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "Show or change what the config handshake tells an app's SDKs.",
        subcommands: [Show.self, Set.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an app's settings.")
        @Argument(help: "The appid.") var appid: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let settings = try await database.withStore { try await $0.settings(for: appid) }
            print("\(TerminalText.escaped(appid)): \(settings.enabled ? "enabled" : "DISABLED"), duration ping every \(settings.durationPingInterval) s")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enable or disable an app (the server-side kill switch) and set its duration-ping interval.")
        @Argument(help: "The appid.") var appid: String
        @Flag(inversion: .prefixedEnableDisable, help: "Whether SDKs of this app measure.") var measurement = true
        @Option(help: "Seconds of credit between duration pings (1…3600).") var interval: Int64 = 60
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            let range = ConfigAnswer.intervalRange
            guard range.contains(interval) else {
                throw ValidationError("--interval must be \(range.lowerBound)…\(range.upperBound)")
            }
        }

        func run() async throws {
            let settings = AppSettings(enabled: measurement, durationPingInterval: interval)
            try await database.withStore { try await $0.setSettings(settings, for: appid) }
            print("\(TerminalText.escaped(appid)): \(settings.enabled ? "enabled" : "DISABLED"), duration ping every \(interval) s")
        }
    }
}
