import Foundation

/// The privacy manifest shipped with the SDK (`PrivacyInfo.xcprivacy`, a resource of this target):
/// what App Store review reads about tracking, its domains, the data collected and the
/// required-reason APIs used. `PrivacyManifestTests` checks it against the code.
package enum PrivacyManifest {
    /// The manifest in the SDK's resource bundle.
    package static var url: URL? {
        Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy")
    }

    /// The manifest read as a property list, or nil when it is missing or malformed.
    package static func load() -> [String: Any]? {
        guard let url, let data = try? Data(contentsOf: url) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }
}
