import CensusStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The connections the group-commit writers insert on, kept apart from the client's pool, which
/// serves everything else (reports, sessions, the dashboard).
///
/// A writer's session used to lease a pooled connection, and about one batch in four under load
/// ended its session and gave it back; every return made the pool schedule an idle and a
/// keep-alive timer (a task and a `dispatch_after` each), cancelled at the next lease, on Swift's
/// shared threads (docs/performance.md, census-decisions.md S15). Here a writer takes a connection from
/// a short list of idle ones, or opens one, and puts it back when its session ends: a lock and an
/// array, no task. At most one connection per concurrent writer exists.
///
/// What the pool's keep-alive did for these connections, a rule does here: a connection idle
/// longer than ``maximumIdle`` is closed and replaced instead of trusted (a firewall or a server
/// restart may have dropped it without a word), and a closed one is never handed out.
final class PostgresWriterConnections: Sendable {
    /// How long a connection may sit unused and still be handed to a writer.
    let maximumIdle: TimeAmount
    /// Where the connections go, with the census's session settings.
    let configuration: PostgresConnection.Configuration
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    private struct State {
        var idle: [(connection: PostgresConnection, since: NIODeadline)] = []
        var nextID = 1
        var closed = false
    }

    /// Connections to `configuration`'s server, opened on `eventLoop`.
    init(configuration: PostgresConnection.Configuration, eventLoop: any EventLoop,
         maximumIdle: TimeAmount = .seconds(30), logger: Logger) {
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.maximumIdle = maximumIdle
        self.logger = logger
    }

    /// Runs `body` with a connection for a writer's session, or with nil when none could be
    /// opened (its batches then go through the pool, which fails them with the reason).
    func withConnection(_ body: (PostgresConnection?) async -> Void) async {
        let connection = await take()
        await body(connection)
        if let connection, !keep(connection) { try? await connection.close() }
    }

    /// Closes the idle connections; one still in a session is closed when it comes back.
    func close() async {
        let idle = state.withLockedValue { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle.map(\.connection)
        }
        for connection in idle { try? await connection.close() }
    }

    /// The connections not in a session (for tests).
    var idleCount: Int { state.withLockedValue { $0.idle.count } }

    private func take() async -> PostgresConnection? {
        let now = NIODeadline.now()
        let (reusable, stale, id) = state.withLockedValue { state -> (PostgresConnection?, [PostgresConnection], Int?) in
            var stale: [PostgresConnection] = []
            while let last = state.idle.popLast() {
                if !last.connection.isClosed, now - last.since <= maximumIdle { return (last.connection, stale, nil) }
                stale.append(last.connection)
            }
            if state.closed { return (nil, stale, nil) }
            defer { state.nextID += 1 }
            return (nil, stale, state.nextID)
        }
        for connection in stale { try? await connection.close() }
        if let reusable { return reusable }
        guard let id else { return nil }
        do {
            return try await PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: logger)
        } catch {
            logger.warning("writer connection not opened", metadata: ["error": "\(storageErrorDescription(error))"])
            return nil
        }
    }

    /// Puts `connection` back among the idle ones, unless it or this list is closed.
    private func keep(_ connection: PostgresConnection) -> Bool {
        state.withLockedValue { state in
            guard !state.closed, !connection.isClosed else { return false }
            state.idle.append((connection, .now()))
            return true
        }
    }
}
