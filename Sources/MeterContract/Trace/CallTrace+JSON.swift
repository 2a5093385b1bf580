extension CallTraceBatch {
    /// The JSON body (docs/protocol.md §2h), written by hand because the SDKs that record traces
    /// build on the Foundation-free core; MeterWire's `Codable` conformance reads it. Argument
    /// keys are sorted and times written to the millisecond, so equal batches are equal bytes.
    public var jsonBody: String {
        var json = "{\"session\":" + JSONText.quoted(session) + ",\"appid\":" + JSONText.quoted(appid)
            + ",\"sdk\":" + JSONText.quoted(sdk) + ",\"entries\":["
        for (index, entry) in entries.enumerated() {
            if index > 0 { json += "," }
            json += entry.jsonObject
        }
        return json + "]}"
    }
}

extension CallTraceEntry {
    var jsonObject: String {
        var json = "{\"seq\":" + String(seq) + ",\"time\":" + JSONText.seconds(time) + ",\"call\":" + JSONText.quoted(call)
            + ",\"args\":{"
        for (index, key) in args.keys.sorted().enumerated() {
            json += (index > 0 ? "," : "") + JSONText.quoted(key) + ":" + JSONText.quoted(args[key] ?? "")
        }
        json += "},\"state\":" + JSONText.quoted(state) + ",\"events\":["
        for (index, event) in events.enumerated() {
            json += (index > 0 ? "," : "") + "{\"code\":" + String(event.code) + ",\"isEvent\":"
                + (event.isEvent ? "true" : "false") + ",\"text\":" + JSONText.quoted(event.text) + "}"
        }
        json += "],\"pings\":["
        for (index, ping) in pings.enumerated() {
            json += (index > 0 ? "," : "") + "{\"id\":" + JSONText.quoted(ping.id) + ",\"query\":" + JSONText.quoted(ping.query) + "}"
        }
        return json + "]}"
    }
}

extension JSONText {
    /// Seconds as a JSON number to the millisecond (`1700000000.125`); 0 for what is not finite
    /// or beyond 4·10¹² s, where a double no longer holds milliseconds exactly and the text would
    /// not read back to itself.
    package static func seconds(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 4e12 else { return "0" }
        let milliseconds = Int64((value * 1000).rounded())
        let whole = milliseconds / 1000, fraction = (milliseconds % 1000).magnitude
        let sign = milliseconds < 0 && whole == 0 ? "-" : ""
        return sign + String(whole) + "." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + String(fraction)
    }
}
