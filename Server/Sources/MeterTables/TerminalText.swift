import CensusStore

/// Stored values on their way to a terminal: every control character made visible, so a value a
/// sender chose can never move the cursor, recolour the screen, retitle the window or hide a line.
/// Every value a report or a certification shows came from the network (an appid, an asset id, a
/// session id, a call's argument), so this is the one place they pass: ``TextTable`` cells and
/// every `meter` line that prints a stored value.
public enum TerminalText {
    /// `text` with every C0 control (tab and line feed too: a table cell is one line), DEL, every
    /// C1 control, the Unicode line and paragraph separators and the bidirectional controls
    /// written as `\u{…}`; the backslash itself is left alone.
    package static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// JSON text (a `JSONEncoder`'s output) with the same characters written as JSON escapes
    /// (`\u009b`), so that it still parses to the same values. They can only stand inside
    /// strings: JSON's own syntax is ASCII outside them.
    package static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            // C0 controls are already escaped by the encoder, except JSON's own whitespace
            // between tokens (line feeds of pretty printing).
            if needsEscape(scalar), scalar.value >= 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a terminal may act on `scalar`, or it may make text display other than stored.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (0x9B alone starts a CSI sequence on some terminals)
        case 0x2028, 0x2029: true  // line and paragraph separators: a line break for some terminals and editors
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls reorder what follows
        default: false
        }
    }
}
