@testable import AppMeter
import Testing

/// The `NoAdvertisingIdentifier` package trait makes every instance noID whatever appInfo or the
/// market asks; without it the flavour is decided as before. .ci/run runs this suite and
/// `PrivacyWireTests.identifierFieldsOnTheWire` in a build with the trait as well.
@Suite struct NoAdvertisingIdentifierTests {
    @Test(arguments: [nil, SDKFlavor.global, .noAdFramework, .noID])
    func aBuildWithoutTheAdIDIsNoIDWhateverIsAsked(_ requested: SDKFlavor?) {
        #expect(SDKFlavor.inForce(required: nil, requested: requested, fallback: .global, compiledOut: true) == .noID)
        #expect(SDKFlavor.inForce(required: .noID, requested: requested, fallback: .global, compiledOut: true) == .noID)
    }

    @Test(.enabled(if: !SDKFlavor.advertisingIdentifierCompiledOut, "the default build"))
    func theDefaultBuildDecidesAsTheGuidesSay() {
        #expect(SDKFlavor.inForce(required: .noID, requested: .global, fallback: .global) == .noID)   // Ireland
        #expect(SDKFlavor.inForce(required: nil, requested: .noAdFramework, fallback: .global) == .noAdFramework)
        #expect(SDKFlavor.inForce(required: nil, requested: nil, fallback: .global) == .global)
    }
}
