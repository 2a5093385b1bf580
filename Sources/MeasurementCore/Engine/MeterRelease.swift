/// The release of the engine, the same on every platform: each platform sends it after its own
/// prefix in `c16` (`ai.` Apple, `al.` Linux, `aw.` the browser).
package enum MeterRelease {
    /// The version, e.g. `1.0.0`.
    package static let version = "1.0.0"
}
