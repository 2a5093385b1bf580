import AppMeter
import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import MeterWire

struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "List, show or change what the config handshake tells an app's SDKs.",
        discussion: "An app without settings gets the standard ones: measurement enabled, a duration ping every 60 s, no market (its pages' nol_sfcode, else the generic rules).",
        subcommands: [List.self, Show.self, Set.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the apps the census has settings for.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let apps = try await database.withExistingStore { try await $0.apps.apps() }
            guard !apps.isEmpty else { return print("no app has settings: every app gets the standard ones (enabled, 60 s)") }
            print(TextTable.render([["appid", "measurement", "duration ping", "market"]] + apps.map {
                [$0.appid, $0.settings.enabled ? "enabled" : "DISABLED", "\($0.settings.durationPingInterval) s",
                 $0.settings.sfcode ?? "-"]
            }))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an app's settings.")
        @Argument(help: "The appid.") var appid: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let settings = try await database.withExistingStore { try await $0.apps.settings(for: appid) }
            print(AppsCommand.line(appid, settings))
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enable or disable an app (the server-side kill switch), set its duration-ping interval or its market.",
            discussion: "Only what is given changes; the other settings keep their value.")
        @Argument(help: "The appid: P or T, then a GUID (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX).") var appid: String
        @Flag(inversion: .prefixedEnableDisable, help: "Whether SDKs of this app measure.") var measurement: Bool?
        @Option(help: "Seconds of credit between duration pings (1…3600).") var interval: Int64?
        @Option(help: ArgumentHelp(
            "The app's market, an appInfo sfcode (it, pl, ire…): its pages are held to that market's rules whatever nol_sfcode they give; \"\" removes it.",
            valueName: "sfcode")) var sfcode: String?
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard MeasuredApp.isValidAppID(appid) else {
                throw ValidationError("\(TerminalText.escaped(appid)) is not an appid: P or T, then a GUID (PXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)")
            }
            guard measurement != nil || interval != nil || sfcode != nil else {
                throw ValidationError("nothing to change: give --enable-measurement, --disable-measurement, --interval or --sfcode")
            }
            if let sfcode, !sfcode.isEmpty, !AppSettings.isValidSFCode(sfcode) {
                throw ValidationError("--sfcode must be 1…32 lowercase letters, digits or -, as appInfo's sfcode (it, pl, ire…)")
            }
            let range = ConfigAnswer.intervalRange
            if let interval, !range.contains(interval) {
                throw ValidationError("--interval must be \(range.lowerBound)…\(range.upperBound)")
            }
        }

        func run() async throws {
            let settings = try await database.withExistingStore { store in
                var settings = try await store.apps.settings(for: appid)
                if let measurement { settings.enabled = measurement }
                if let interval { settings.durationPingInterval = interval }
                if let sfcode { settings.sfcode = sfcode.isEmpty ? nil : sfcode }
                try await store.apps.setSettings(settings, for: appid)
                return settings
            }
            print(AppsCommand.line(appid, settings))
        }
    }

    static func line(_ appid: String, _ settings: AppSettings) -> String {
        "\(TerminalText.escaped(appid)): \(settings.enabled ? "enabled" : "DISABLED"), duration ping every \(settings.durationPingInterval) s"
            + (settings.sfcode.map { ", market \($0)" } ?? "")
    }
}
