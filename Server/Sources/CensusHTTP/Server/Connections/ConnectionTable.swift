import CensusStore
import NIOConcurrencyHelpers
package import NIOCore

/// The census's open connections, across its event loops, and the cap on how many: each
/// ``ConnectionGuard`` joins when its connection is accepted and leaves when it closes.
///
/// At the cap a new connection is taken rather than refused, and the oldest connection the
/// census owes no answer is closed to make room: an idle one or one still sending its request,
/// which is what slow clients hold. Refusing the new one instead would let whoever filled the
/// slots first (the slow clients) keep the census from every real client, `/healthz` included.
package final class ConnectionTable: Sendable {
    /// How many connections may be open at once.
    package let limit: Int
    /// How many body bytes the census's connections may hold at once (``ConnectionLimits/bodyBudget``).
    package let bodyBudget: Int
    private let table: NIOLockedValueBox<Table>

    package init(limit: Int, bodyBudget: Int = ConnectionLimits.standardBodyBudget) {
        self.limit = max(1, limit)
        self.bodyBudget = max(0, bodyBudget)
        self.table = NIOLockedValueBox(Table())
    }

    /// What the table did since it was made.
    package var counters: ConnectionCounters { table.withLockedValue { $0.counters } }

    /// Takes `channel` in, closing the oldest connection owed no answer when the table is full.
    /// Returns its place, or nil when it must be closed: every other connection is owed an answer.
    package func admit(_ channel: any Channel) -> UInt64? {
        let (id, evicted) = table.withLockedValue { $0.admit(channel, limit: limit) }
        evicted?.close(promise: nil)
        return id
    }

    /// The connection at `id` has closed (nothing when it was evicted already).
    package func remove(_ id: UInt64) {
        table.withLockedValue { $0.remove(id) }
    }

    /// Whether the connection at `id` is owed an answer (then it is never evicted).
    package func setAwaitingAnswer(_ id: UInt64, _ awaiting: Bool) {
        table.withLockedValue { $0.entries[id]?.awaitingAnswer = awaiting }
    }

    /// Counts a connection closed for `expiry`.
    func count(_ expiry: ConnectionState.Expiry) {
        table.withLockedValue { $0.counters.count(expiry) }
    }

    /// Takes `bytes` more of a request body into the budget; false (and nothing taken, the
    /// connection counted as shed) when they would take it past ``bodyBudget``.
    func holdBody(_ bytes: Int) -> Bool {
        table.withLockedValue { table in
            guard bytes <= bodyBudget - table.counters.bodyBytesHeld else {
                table.counters.shedForBodyBudget += 1
                return false
            }
            table.counters.bodyBytesHeld += bytes
            table.counters.mostBodyBytesHeld = max(table.counters.mostBodyBytesHeld, table.counters.bodyBytesHeld)
            return true
        }
    }

    /// Gives back `bytes` of request bodies: their answers have ended, or their connection closed.
    func releaseBody(_ bytes: Int) {
        guard bytes > 0 else { return }
        table.withLockedValue { $0.counters.bodyBytesHeld = max(0, $0.counters.bodyBytesHeld - bytes) }
    }

    struct Entry {
        let channel: any Channel
        var awaitingAnswer = false
    }

    /// The connections by id, and their ids oldest first. Ids of closed connections stay in
    /// `order` until they reach its front or the list is compacted, so each change is O(1)
    /// amortized: at the cap, under a flood, every accept evicts.
    struct Table {
        var entries: [UInt64: Entry] = [:]
        var order: [UInt64] = []
        var front = 0
        var nextID: UInt64 = 0
        var counters = ConnectionCounters()

        mutating func admit(_ channel: any Channel, limit: Int) -> (UInt64?, (any Channel)?) {
            counters.accepted += 1
            var evicted: (any Channel)?
            if entries.count >= limit {
                guard let victim = oldestOwedNothing() else {
                    counters.refused += 1
                    return (nil, nil)
                }
                evicted = entries.removeValue(forKey: victim)?.channel
                counters.evicted += 1
            }
            let id = nextID
            nextID += 1
            entries[id] = Entry(channel: channel)
            order.append(id)
            counters.open = entries.count
            counters.mostOpen = max(counters.mostOpen, entries.count)
            return (id, evicted)
        }

        mutating func remove(_ id: UInt64) {
            guard entries.removeValue(forKey: id) != nil else { return }
            counters.open = entries.count
            // Closed ids are left in `order`; drop them once they are most of it.
            if order.count - front > 2 * entries.count + 64 {
                order = order[front...].filter { entries[$0] != nil }
                front = 0
            }
        }

        /// Takes the oldest connection owed no answer out of `order`; those owed one go to its
        /// back (younger than they are, which only spares them longer). Nil when all are owed one.
        private mutating func oldestOwedNothing() -> UInt64? {
            var looked = 0
            while front < order.count, looked < entries.count {
                let id = order[front]
                front += 1
                guard let entry = entries[id] else { continue }
                looked += 1
                if !entry.awaitingAnswer { compact(); return id }
                order.append(id)
            }
            compact()
            return nil
        }

        private mutating func compact() {
            guard front > 1024, front * 2 > order.count else { return }
            order.removeFirst(front)
            front = 0
        }
    }
}
