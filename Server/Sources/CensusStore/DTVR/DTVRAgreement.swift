/// Whether the census's tag credit and the SDK's duration pings agree for one session and CID
/// (docs/census.md §5).
///
/// Both walk the same tags with the same rule, so they differ honestly only where one of them
/// sees a step the other cannot: the SDK keeps a source's last tag across viewing sessions and
/// forgets it at `end`, while the census walks each session on its own, so each boundary may
/// move one tag step (at most ``ID3Crediting/maxTagGap``, 15 s) from one side to the other; and a
/// kill loses the SDK's credit since its last checkpoint (under 10 s) but no tag ping already
/// queued. One tag step per session and CID is taken as agreement; more is a disagreement.
package enum DTVRAgreement {
    /// The largest difference per session and CID that is not a disagreement, in seconds.
    package static let tolerance: Int64 = 15

    /// Whether `tagSeconds` and `sdkSeconds` of one session and CID disagree.
    package static func disagree(tagSeconds: Int64, sdkSeconds: Int64) -> Bool {
        let (difference, overflow) = tagSeconds.subtractingReportingOverflow(sdkSeconds)
        return overflow || difference.magnitude > tolerance.magnitude
    }
}
