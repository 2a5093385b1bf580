@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SwiftASN1
import Testing
import X509

/// `meter serve --tls-cert --tls-key`: a census answering HTTPS with a certificate made here,
/// reached by a client that trusts only that certificate.
@Suite struct HTTPSTests {
    /// A self-signed certificate for `localhost` and 127.0.0.1, written as PEM files in `folder`.
    static func makeCertificate(in folder: URL) throws -> (certificate: URL, key: URL, trusted: NIOSSLCertificate) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        let pem = try certificate.serializeAsPEM().pemString
        let certificateFile = folder.appendingPathComponent("census.crt")
        let keyFile = folder.appendingPathComponent("census.key")
        try pem.write(to: certificateFile, atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        return (certificateFile, keyFile, try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem))
    }

    /// One request over TLS to `port`, trusting only `root`; the whole answer as text.
    static func get(_ path: String, port: Int, trusting root: NIOSSLCertificate) async throws -> String {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([root])
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        var answer = ""
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
            do {
                for try await chunk in inbound { answer += String(buffer: chunk) }
            } catch NIOSSLError.uncleanShutdown {
                // The answer is whole: the census closed after it, as `Connection: close` asked.
            }
        }
        return answer
    }

    @Test func aPingOverHTTPSIsStoredAndAClientTrustingAnotherCertificateIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("census-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try Self.makeCertificate(in: folder)
        let tls = try CensusTLS(certificateFile: made.certificate.path, keyFile: made.key.path)
        let census = try await RunningCensus.start(database: .sqlite(path: folder.appendingPathComponent("census.sqlite").path), tls: tls)
        #expect(census.baseURL.hasPrefix("https://"))
        let answer = try await Self.get("/cgi-bin/gn?" + PingQueries.valid(pingID: "tls-1"), port: census.port, trusting: made.trusted)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(answer.hasSuffix("stored\n"))
        #expect(try await census.server.store.counts().pings == 1)
        // A client that trusts another certificate is refused during the handshake.
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let stranger = try Self.makeCertificate(in: other)
        await #expect(throws: (any Error).self) {
            _ = try await Self.get("/healthz", port: census.port, trusting: stranger.trusted)
        }
        // TLS waits up to 5 s for the client's close_notify: the stop takes that long.
        await census.stop()
    }

    @Test func unreadableFilesAreRefusedWithWhatAndWhere() throws {
        #expect(throws: CensusError.self) { try CensusTLS(certificateFile: "/nonexistent/census.crt", keyFile: "/nonexistent/census.key") }
        do {
            _ = try CensusTLS(certificateFile: "/nonexistent/census.crt", keyFile: "/nonexistent/census.key")
        } catch {
            #expect("\(error)".contains("/nonexistent/census.crt"))
        }
    }
}
