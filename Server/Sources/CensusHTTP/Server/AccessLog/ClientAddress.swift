import CensusStore
import Crypto
import NIOCore

/// A client's address as the access log shows it (``ClientAddressForm``), worked out once per
/// connection, not per request.
enum ClientAddress {
    /// The key of ``ClientAddressForm/hashed``: made at the process's first hash and never kept,
    /// so no one can hash candidate addresses to match a line.
    /// Held as bytes: Crypto's key type is not `Sendable` on every platform.
    private static let key = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }

    /// `address` in `form`; `local` for a Unix socket, `unknown` without an address.
    static func shown(_ address: SocketAddress?, as form: ClientAddressForm) -> String {
        guard let address else { return "unknown" }
        guard let bytes = packed(address) else { return "local" }
        switch form {
        case .full:
            return text(bytes) ?? "unknown"
        case .truncated:
            // A /24 of IPv4, also when it arrives IPv4-mapped on a dual-stack socket; a /48 of IPv6.
            var cut = bytes
            if cut.count == 16, let mapped = ipv4(inMapped: cut) { cut = mapped }
            for index in (cut.count == 4 ? 3 : 6)..<cut.count { cut[index] = 0 }
            return text(cut) ?? "unknown"
        case .hashed:
            let canonical = bytes.count == 16 ? ipv4(inMapped: bytes) ?? bytes : bytes
            let mac = HMAC<SHA256>.authenticationCode(for: canonical, using: SymmetricKey(data: key))
            return mac.prefix(8).map { byte in
                let digits = Array("0123456789abcdef".utf8)
                return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
            }.joined()
        }
    }

    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6; nil for a Unix socket.
    /// Read at their offsets in `sockaddr_in` (4) and `sockaddr_in6` (8), the same on Linux and
    /// Darwin: the fields' names belong to whichever C module the compiler saw define the struct
    /// first (NIO's or the C library's), which MemberImportVisibility would have this file import.
    static func packed(_ address: SocketAddress) -> [UInt8]? {
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address) { Array($0[4..<8]) }
        case .v6(let v6):
            return withUnsafeBytes(of: v6.address) { Array($0[8..<24]) }
        case .unixDomainSocket:
            return nil
        }
    }

    /// The IPv4 address in an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`), or nil.
    private static func ipv4(inMapped bytes: [UInt8]) -> [UInt8]? {
        guard bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }

    /// Dotted IPv4 or RFC 5952 IPv6 text, as NIO writes it.
    private static func text(_ bytes: [UInt8]) -> String? {
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        return (try? SocketAddress(packedIPAddress: buffer, port: 0))?.ipAddress
    }
}
