import Foundation

/// The privacy manifest of the build whose flavour is `noAdFramework` (docs/privacy.md): the resource of
/// this target, which AppMeter depends on only under that flavour's package trait.
package enum FlavorPrivacyManifest {
    /// The flavour the manifest declares.
    package static let flavor = "noAdFramework"
    /// The manifest in this target's resource bundle.
    package static var url: URL? { Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy") }
}
