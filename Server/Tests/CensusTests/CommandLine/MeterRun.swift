import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `meter` executable run as an operator runs it: arguments in, exit code and both streams out.
struct MeterRun {
    var status: Int32
    var output: String
    var errors: String

    /// Runs `meter` with `arguments` and this process's environment plus `environment`, killed
    /// after `timeout` seconds (then `status` is its signal's).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) throws -> MeterRun {
        guard let meter = DurabilityTests.meterExecutable else { throw MeterMissing() }
        let process = Process()
        process.executableURL = meter
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return MeterRun(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                        errors: String(decoding: err, as: UTF8.self))
    }

    /// A fresh path in a temporary folder (the file does not exist).
    static func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("meter-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    /// A port on loopback that something is listening on, and the descriptor holding it.
    static func occupiedPort() throws -> (port: Int, descriptor: Int32) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 1) == 0 else { throw MeterMissing() }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (Int(UInt16(bigEndian: address.sin_port)), descriptor)
    }
}

/// The `meter` executable is not built beside the tests, or a socket could not be made.
struct MeterMissing: Error {}
