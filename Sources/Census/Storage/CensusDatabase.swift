import SQLKit

/// A database the census stores pings in. Both backends speak SQL through SQLKit, so every query
/// in ``PingStore`` is written once.
public protocol CensusDatabase: Sendable {
    /// `sqlite` or `postgresql`.
    var backendName: String { get }
    /// How many inserts may usefully run at once: 1 for a single connection; more for a pool,
    /// where one batch is inserted while another waits for its commit.
    var concurrentWriters: Int { get }
    /// How many items must wait before a writer beyond the first starts
    /// (``GroupCommit/init(maxBatch:writers:waitingForAnotherWriter:session:startWriter:commit:)``).
    var waitingForAnotherWriter: Int { get }
    /// Runs `body` with a SQLKit database handle.
    func withSQL<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result
    /// Releases connections.
    func close() async
    /// Inserts `pings` in one statement and returns the ids that were new (see
    /// ``PingStore/insert(_:receivedAt:)``); a backend may write them its own faster way.
    func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String>
    /// Inserts refused requests in one statement; a backend may write them its own faster way.
    func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws
    /// Runs `batches`, a group-commit writer's consecutive inserts (``GroupCommit/Session``), with
    /// what the backend holds for all of them; it runs `batches` exactly once.
    func writerSession(_ batches: () async -> Void) async
    /// Starts a group-commit writer's task (``GroupCommit/StartWriter``) where its inserts run best.
    func startWriter(_ writer: @escaping @Sendable () async -> Void)
}

extension CensusDatabase {
    /// Another writer as soon as anything waits.
    public var waitingForAnotherWriter: Int { 1 }

    /// Nothing to hold: each insert runs on its own.
    public func writerSession(_ batches: () async -> Void) async {
        await batches()
    }

    /// On Swift's shared threads.
    public func startWriter(_ writer: @escaping @Sendable () async -> Void) {
        Task { await writer() }
    }

    /// The portable insert, through SQLKit.
    public func insertPings(_ pings: [IncomingPing], receivedAt: Int64) async throws -> Set<String> {
        try await withSQL { db in
            var insert = db.insert(into: "census_pings").columns(PingStore.pingColumns)
            for ping in pings { insert = insert.values(PingStore.values(of: ping, receivedAt: receivedAt)) }
            let rows = try await insert.ignoringConflicts(with: "ping_id").returning("ping_id").all()
            return Set(try rows.map { try $0.decode(column: "ping_id", as: String.self) })
        }
    }

    /// The portable insert of refused requests, through SQLKit.
    public func insertRejects(_ rejects: [PingStore.NewReject], receivedAt: Int64) async throws {
        try await withSQL { db in
            var insert = db.insert(into: "census_rejects").columns("reject_id", "received_at", "reason", "raw_request", "appid", "bytes")
            for reject in rejects {
                insert = insert.values(reject.id, receivedAt, reject.reason, reject.rawRequest, reject.appid, reject.bytes)
            }
            try await insert.run()
        }
    }
}
