extension String {
    /// The string with ASCII letters in lower case and everything else as is: what the guides'
    /// keywords (`content`, `true`, sfcodes) need, without the Unicode case tables that
    /// `lowercased()` would pull into the WebAssembly bundle.
    package var asciiLowercased: String {
        guard utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return self }
        return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
