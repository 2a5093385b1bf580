/// The sizes and ranges of the ping contract (docs/protocol.md §2 "Length", §4), in one place so
/// that what the SDK sends and what the census accepts cannot drift apart: the SDK keeps within
/// the `sdk` limits, the census refuses (400) only beyond the `census` ones, and each `sdk` limit
/// is within its `census` one (a test checks it).
public enum WireLimits {
    /// The longest ping URL the SDK sends, base URL included: the 2 KB that proxies, CDNs and the
    /// original SDKs' collectors are known to take.
    public static let sdkMaxURLBytes = 2048
    /// The longest ping URL the census accepts: room for senders other than AppMeter, which keep
    /// no limit of their own.
    public static let censusMaxURLBytes = 8192

    /// The longest asset id (`ai`) the SDK sends, in UTF-8 bytes before percent-encoding. A longer
    /// one is cut at a character boundary and ends with `~` and eight hex digits of its CRC-32
    /// (``assetIDDigestLength`` bytes in all), so that two long ids differing only after the cut
    /// stay two assets; the census keeps no limit of its own on `ai`.
    public static let sdkMaxAssetIDBytes = 256
    /// The `~` and eight hex digits that end a cut asset id.
    public static let assetIDDigestLength = 9

    /// The longest ping id (`pingid`) the census accepts, in characters (AppMeter's are 32).
    public static let censusMaxPingIDCharacters = 128
    /// The most seconds one ping may credit (`c27`); the census refuses more.
    public static let maxCreditedSecondsPerPing: Int64 = 86_400
    /// The creation times (`c61`, Unix seconds) the census accepts: 1970 to 2100, so that spans of
    /// creation times cannot overflow in a report.
    public static let creationTimes: ClosedRange<Int64> = 0...4_102_444_800

    /// The descriptive fields of a ping: what it says about the asset and the app, not what the
    /// census credits (product, app, asset, kind, seconds, session, device, times and flags are
    /// never among them). In this order they give way when a URL would be longer than
    /// ``sdkMaxURLBytes``: each is shortened from its end, never into its `name,` prefix, until the
    /// URL fits. The same fields are emptied when the census refuses a ping, which is then sent
    /// once more with its credit alone (docs/protocol.md §2 "Refused pings").
    ///
    /// `asn` (the channel, which DTVR reports are grouped by) and `id3` (the DTVR tag, whose CIDs
    /// and offsets go in their own fields too) come last.
    public static let descriptiveFields: [PingField] = [
        .title, .program, .segC, .segB, .segA, .crossID2, .crossID1, .programGenre, .pipMode, .airdate,
        .provider, .stationType, .appName, .appVersion, .subbrand, .clientID, .assetName, .id3Tag,
    ]
}
