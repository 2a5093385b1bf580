import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Raw HTTP/1 over loopback sockets, for tests that must send what no HTTP client would: half
/// a head, then nothing.
enum LoopbackClient {
    /// Opens a connection to `port` and writes `text` (nothing when empty).
    static func open(port: Int, sending text: String = "") async throws -> any Channel {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        if !text.isEmpty { try await channel.writeAndFlush(ByteBuffer(string: text)) }
        return channel
    }

    /// Sends `GET path` on a new connection and returns everything the census wrote before it
    /// closed the connection.
    static func get(port: Int, _ path: String) async throws -> String {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) } }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        try await channel.closeFuture.get()
        return collector.text
    }

    /// Keeps what a connection receives.
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let received = NIOLockedValueBox("")

        var text: String { received.withLockedValue { $0 } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0 += String(buffer: buffer) }
        }
    }
}
