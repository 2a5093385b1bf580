package import Logging
package import NIOCore
package import SQLKit

/// A connection to the census's database as SQLKit sees it, carrying its engine's
/// ``CensusDialect``: what the shared SQL is handed (``CensusDatabase/withSQL(_:)``), so that it
/// asks the engine for what differs instead of checking a dialect's name.
///
/// Everything SQLKit asks of a database goes to the connection unchanged, so a statement built on
/// it is the one built on the connection itself.
package struct CensusSQL: SQLDatabase {
    /// The connection.
    package let connection: any SQLDatabase
    /// What its engine's SQL says differently.
    package let engine: any CensusDialect

    package init(_ connection: any SQLDatabase, engine: any CensusDialect) {
        self.connection = connection
        self.engine = engine
    }

    package var logger: Logger { connection.logger }
    package var eventLoop: any EventLoop { connection.eventLoop }
    package var version: (any SQLDatabaseReportedVersion)? { connection.version }
    package var dialect: any SQLDialect { connection.dialect }
    package var queryLogLevel: Logger.Level? { connection.queryLogLevel }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        connection.execute(sql: query, onRow)
    }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try await connection.execute(sql: query, onRow)
    }

    package func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await connection.withSession(closure)
    }

    /// Runs `body`'s writes in one transaction, returning once it is committed
    /// (``CensusDialect/inTransaction(_:_:)``): for a write whose answer says it is stored.
    package func inTransaction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await engine.inTransaction(self, body)
    }

    /// Runs `body` in a transaction holding a lock on `key` where the engine has servers sharing
    /// the database (``CensusDialect/inTransactionHoldingLock(on:_:_:)``).
    func inTransactionHoldingLock<Result: Sendable>(on key: String, _ body: () async throws -> Result) async throws -> Result {
        try await engine.inTransactionHoldingLock(on: key, self, body)
    }
}
