/// The `airdate` layouts the market pages accept, as patterns where `9` is a digit and `±` is
/// `+` or `-`; every other character must match exactly.
enum AirdateFormat {
    static let patterns: [String] = [
        "99999999 99:99:99",          // YYYYMMDD HH:MI:SS (all markets)
        "99999999999999",             // YYYYMMDDHH24MISS (simplified API)
        "9999-99-99T99:99:99",        // YYYY-MM-DDTHH:MI:SS
        "9999-99-9999:99:99",         // YYYY-MM-DDHH:MI:SS
        "9999-99-99T99:99:99±99:99",  // with a UTC offset
        "9999999999:99:99",           // YYYYMMDDHH:MI:SS
        "99-99-9999",                 // MM-DD-YYYY
        "99/99/9999",                 // MM/DD/YYYY
    ]

    /// Whether `value` has one of the accepted layouts.
    static func isValid(_ value: String) -> Bool {
        let chars = Array(value)
        return patterns.contains { pattern in
            let p = Array(pattern)
            guard p.count == chars.count else { return false }
            return zip(p, chars).allSatisfy { expected, actual in
                switch expected {
                case "9": ("0"..."9").contains(actual)
                case "±": actual == "+" || actual == "-"
                default: expected == actual
                }
            }
        }
    }
}
