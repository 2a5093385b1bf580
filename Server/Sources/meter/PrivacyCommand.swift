import ArgumentParser
import CensusHTTP
import CensusStore
import MeterTables
import Foundation

/// `meter privacy export|delete`: one device's data, as the GDPR gives a person the right to see
/// and erase what a collector holds of them (docs/privacy.md, "The census").
struct PrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Export or delete everything the census holds of one device (its id from c9, or a browser's nuid).",
        subcommands: [Export.self, Delete.self])

    /// The device named on the command line, checked.
    struct Device: ParsableArguments {
        @Option(help: ArgumentHelp("The device id: the ping's c9 device id, or a browser page's nuid.", valueName: "id"))
        var device: String

        func validate() throws {
            guard device.count >= PrivacyStore.minimumDeviceIDLength else {
                throw ValidationError("--device \(TerminalText.escaped(device)) is shorter than \(PrivacyStore.minimumDeviceIDLength) characters: it could name other devices' data")
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print (or write to --out) as JSON the device's pings, its sessions' viewability pings, and the refused requests and call-trace entries that carry its id.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var device: Device
        @Option(help: ArgumentHelp("Write the JSON to this new file instead of standard output.", valueName: "file"))
        var out: String?

        func run() async throws {
            let data = try await database.withExistingStore { try await $0.privacy.deviceData(device.device) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let json = try encoder.encode(data) + Data("\n".utf8)
            guard let out else { return FileHandle.standardOutput.write(json) }
            guard FileManager.default.createFile(atPath: out, contents: nil),
                  let handle = FileHandle(forWritingAtPath: out) else {
                throw MeterFailure(.cannotCreate, "cannot create \(out)")
            }
            handle.write(json)
            try handle.close()
            print("wrote \(out): \(data.pings.count) pings, \(data.viewability.count) viewability pings, \(data.rejects.count) refused requests, \(data.traceEntries.count) trace entries")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the device's pings, its sessions' viewability pings and spans, and the refused requests and call-trace entries that carry its id; print what went. Reports computed afterwards no longer count it.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var device: Device

        func run() async throws {
            let deleted = try await database.withExistingStore { try await $0.privacy.deleteDevice(device.device) }
            print("deleted for device \(TerminalText.escaped(device.device)): \(deleted.pings) pings, \(deleted.viewability) viewability pings, \(deleted.sessionSpans) session spans, \(deleted.rejects) refused requests, \(deleted.traceEntries) trace entries")
        }
    }
}
