/// What appInfo holds that measures nothing by itself, said once per instance at init as a
/// warning naming the key (decisions.md A10, V5): an app written from the guides' samples learns
/// what those keys do here instead of finding it in the numbers.
extension AppInfo {
    /// Keys the simplified guide's `NielsenInit` sample passes that no guide gives an effect, with
    /// what an integrator should know of each.
    static let keysWithoutEffect: [(key: String, instead: String)] = [
        ("ccode", "no guide gives it an effect and no ping carries it"),
        ("dma", "no guide gives it an effect and no ping carries it"),
        ("uoo", "a ping's uoo follows the user's choice (userOptOut, the opt-out page), never appInfo"),
    ]

    /// The warnings this appInfo calls for, one line per key, in a fixed order.
    public var initNotices: [String] {
        var notices = Self.keysWithoutEffect.filter { values[$0.key] != nil }.map { entry in
            "appInfo '\(entry.key)' has no effect: \(entry.instead)"
        }
        if let tag = containerTag {
            notices.append("appInfo 'containerId' \(tag) starts no viewability by itself: call trackViewability with the player's data to measure it")
        }
        return notices
    }
}
