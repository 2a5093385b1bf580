/// Stored values on their way to a terminal: every control character made visible, so a value a
/// sender chose can never move the cursor, recolour the screen or retitle the window.
public enum TerminalText {
    /// `text` with C0 and C1 controls, DEL and the Unicode line and paragraph separators written
    /// as `\u{…}`; the backslash itself is left alone.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
