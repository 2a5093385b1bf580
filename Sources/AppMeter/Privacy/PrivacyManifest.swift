package import Foundation
// One manifest per flavour, each the resource of a target AppMeter depends on under that flavour's
// package trait (SwiftPM cannot switch a resource by trait): the one this build ships.
#if NoAdvertisingIdentifier
import AppMeterPrivacyNoID
#elseif NoAdFramework
import AppMeterPrivacyNoAdFramework
#elseif AdFramework
import AppMeterPrivacyGlobal
#endif

/// The privacy manifest shipped with the SDK (`PrivacyInfo.xcprivacy`): what App Store review reads
/// about tracking, the data collected and the required-reason APIs used, for the flavour this build
/// was made for. `PrivacyManifestTests` checks each flavour's manifest against the code.
package enum PrivacyManifest {
    /// The flavour the shipped manifest declares (`global`, `noAdFramework`, `noID`), or nil in a
    /// build with no flavour trait, which ships none.
    package static var flavor: String? {
        #if NoAdvertisingIdentifier || NoAdFramework || AdFramework
        FlavorPrivacyManifest.flavor
        #else
        nil
        #endif
    }

    /// The manifest in the SDK's resource bundle.
    package static var url: URL? {
        #if NoAdvertisingIdentifier || NoAdFramework || AdFramework
        FlavorPrivacyManifest.url
        #else
        nil
        #endif
    }

    /// The manifest read as a property list, or nil when it is missing or malformed.
    package static func load() -> [String: Any]? {
        guard let url, let data = try? Data(contentsOf: url) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }
}
