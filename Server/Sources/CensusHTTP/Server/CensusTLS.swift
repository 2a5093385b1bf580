import CensusStore
import Foundation
#if TLS
package import NIOSSL
#endif

/// The certificate and key `meter serve --tls-cert --tls-key` answers HTTPS with: the guides'
/// SDKs talk to the census over HTTPS, pages on HTTPS load the browser SDK over HTTPS, and App
/// Transport Security refuses plain HTTP on Apple platforms. (A reverse proxy terminating TLS in
/// front of a plain census is the alternative: docs/census.md §4d.) Built with the package's `TLS`
/// trait (on by default); without it, asking for HTTPS fails with ``CensusError/notBuiltIn(feature:trait:)``.
package struct CensusTLS: Sendable {
#if TLS
    /// The server's configuration: its certificate chain (leaf first) and private key.
    let configuration: TLSConfiguration

    /// Reads a PEM certificate chain (leaf first) and a PEM private key, refusing with
    /// ``CensusError/tlsUnusable(_:)`` what cannot be read.
    package init(certificateFile: String, keyFile: String) throws {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw CensusError.tlsUnusable("cannot read a PEM certificate from \(certificateFile) (\(error))")
        }
        guard !chain.isEmpty else { throw CensusError.tlsUnusable("\(certificateFile) holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw CensusError.tlsUnusable("cannot read a PEM private key from \(keyFile) (\(error))")
        }
        self.init(certificateChain: chain, privateKey: key)
    }

    /// A configuration from values already read (tests make a certificate in memory).
    package init(certificateChain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // TLS 1.2 and later: every platform the guides name speaks it.
        configuration.minimumTLSVersion = .tlsv12
        self.configuration = configuration
    }
#else
    /// Refuses: this meter was built without swift-nio-ssl.
    package init(certificateFile: String, keyFile: String) throws {
        throw CensusError.notBuiltIn(feature: "HTTPS", trait: "TLS")
    }
#endif
}
