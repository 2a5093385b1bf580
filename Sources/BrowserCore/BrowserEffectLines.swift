package import MeasurementCore
import MeterContract

/// What the page's JavaScript must do after a call, one line each, fields separated by tabs
/// (docs/browser.md): nothing in a field contains a tab or a line end.
///
/// - `send <ping id> <checkpoint slot or -> <query>`: queue the ping durably and send it; then drop
///   the checkpoint in that slot.
/// - `checkpoint <slot> <ping id> <query>`: keep it in place of the slot's previous one (and of
///   its credit form); after a reload it is sent as recovered.
/// - `credit <slot> <ping id> <seconds> <created>`: the slot's checkpoint now credits `seconds`
///   (`c27`) and was made at `created` (`c61`, seconds since 1970), all else unchanged: kept
///   beside the checkpoint as its credit form, which a later page applies to it with
///   ``BrowserInstance/creditedQuery(_:pingID:seconds:created:)`` (decisions.md D14).
/// - `event <code> <text>`: an event or error the app SDK would give its delegate.
/// - `log <level> <text>`: a console line (with `nol_sdkDebug`).
/// - `wake <ms since 1970>`: call `wake` then; only the last such line counts, and none means no timer.
/// - `trace <JSON>`: a call-trace batch to POST to the census (with `nol_sdkDebug`).
///
/// Queries are the ping's parameters without the send time (``BrowserInstance/sendQuery``).
package struct BrowserEffectLines {
    package private(set) var text = ""

    package init() {}

    mutating func append(_ effect: MeterEffect) {
        switch effect {
        case .enqueue(let record, let slot):
            engineLine("send", record.ping.id, slot?.rawValue ?? "-")
            query(record.ping)
        case .checkpoint(let record, let slot, let creditOnly):
            guard creditOnly else {
                engineLine("checkpoint", slot.rawValue, record.ping.id)
                query(record.ping)
                return
            }
            // Not the query again: a playing page writes one every five seconds (D14).
            engineLine("credit", slot.rawValue, record.ping.id, String(record.ping.creditedSeconds),
                       String(MeterInstant(secondsSince1970: record.ping.createdAt).unixSeconds))
            text += "\n"
        case .report(let code, let description):
            event(code, description)
        case .log(let level, let message):
            log(level, message)
        case .setLogLevel, .pauseDelivery, .resumeDelivery, .deliverPromptly, .persistOptOut, .markRun:
            break
        }
    }

    mutating func trace(_ batch: CallTraceBatch) {
        line("trace", batch.jsonBody)   // JSON escapes tabs and line ends
    }

    mutating func event(_ code: MeterEventCode, _ text: String) {
        line("event", String(code.rawValue), text)
    }

    mutating func log(_ level: MeterLogLevel, _ message: String) {
        line("log", Self.levelName(level), message)
    }

    mutating func wake(_ time: MeterInstant?) {
        guard let time else { return }
        engineLine("wake", String(Int64((time.secondsSince1970 * 1000).rounded(.up))))
        text += "\n"
    }

    /// A line of fields that may hold what a page or the census sent: a tab or a line end in
    /// one becomes a space.
    private mutating func line(_ fields: String...) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "\t" }
            text += Self.flattened(field)
        }
        text += "\n"
    }

    /// The start of a line whose fields the engine made (ping ids, slots, numbers), which hold no
    /// tab or line end, so none is scanned: a playing page writes one every few seconds. A tab
    /// follows the last; the caller ends the line.
    private mutating func engineLine(_ fields: String...) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "\t" }
            text += field
        }
    }

    /// Ends a `send` or `checkpoint` line with the ping's stored parameters as a query, values
    /// percent-encoded (so no tab or line end).
    private mutating func query(_ ping: Ping) {
        text += "\t"
        text += PingEncoder.storedQuery(ping)
        text += "\n"
    }

    private static func flattened(_ field: String) -> String {
        var found = false
        for byte in field.utf8 where byte == 9 || byte == 10 || byte == 13 {
            found = true
            break
        }
        guard found else { return field }
        return String(decoding: field.utf8.map { $0 == 9 || $0 == 10 || $0 == 13 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func levelName(_ level: MeterLogLevel) -> String {
        switch level {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }
}

extension BrowserInstance {
    /// The query to send for a stored ping `query` at `time`: the send time and cache buster
    /// appended, `recovered=1` for one sent after a reload, shortened to fit the 2,048-byte URL.
    package static func sendQuery(_ query: String, at time: MeterInstant, recovered: Bool, prefixLength: Int) -> String? {
        guard let ping = storedPing(query) else { return nil }
        return PingEncoder.query(for: ping, sendTime: time, recovered: recovered, prefixLength: prefixLength)
    }

    /// A checkpoint's stored `query` with its credit form applied (a `credit` line's fields): `c27`
    /// and `c61` set to `seconds` and `created`. Unchanged when the form is another ping's (an
    /// earlier minute's) or the query lacks either parameter. A form older than the checkpoint
    /// (the page stopped between saving a checkpoint and dropping the form) credits less: at
    /// most one checkpoint's seconds, the loss D3 allows a crash anyway.
    package static func creditedQuery(_ query: String, pingID: String, seconds: Int64, created: Int64) -> String {
        guard var ping = storedPing(query),
              ping.parameters.contains(where: { $0.name == PingField.pingID.name && $0.value == pingID }),
              ping.setCredit(seconds, createdAt: MeterInstant(secondsSince1970: Double(created))) else { return query }
        return PingEncoder.storedQuery(ping)
    }

    /// The parameters of a stored query as a ping (only its parameters are read), or nil when the
    /// text is not a query. One place for both uses: the engine is sized by its code.
    @inline(never)
    private static func storedPing(_ query: String) -> Ping? {
        guard case .success(let pairs) = PingQuery.parameters(Substring(query)) else { return nil }
        return Ping(id: "", kind: .duration, assetKind: .content, assetID: "", creditedSeconds: 0, createdAt: 0,
                    parameters: pairs.map { PingParameter($0.name, $0.value) })
    }
}
