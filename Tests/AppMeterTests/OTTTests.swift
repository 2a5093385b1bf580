import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// `updateOTT` (the Ireland guide and the Poland page "AirPlay") and trackEvent's `ottData`.
@Suite struct OTTTests {
    static func ott(_ ping: DecodedPing) -> String { "\(ping["c71"]!) \(ping["c72"]!)" }

    @Test func anAirPlayConnectionMidStreamSplitsTheCredit() async {
        let meter = MeterHarness()
        meter.api.play(nil)
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.updateOTT(["ottStatus": "1", "ottType": "airplay", "ottDevice": "appleTV",
                             "ottDeviceModel": "Apple TV 4K", "ottDeviceID": "4335E8A9-screen"])
        meter.play(31...50)
        meter.api.updateOTT(["ottStatus": "1", "ottType": "airplay", "ottDeviceModel": "Living room"])  // same on the wire
        meter.play(51...60)
        meter.api.updateOTT(["ottStatus": "0"])
        meter.play(61...70)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map { "\($0.summary) \(Self.ott($0))" } == [
            "view content/vid345-67483 0 ottflg,0 otttyp,",
            "timer content/vid345-67483 30 ottflg,0 otttyp,",
            "timer content/vid345-67483 30 ottflg,1 otttyp,airplay",
            "timer content/vid345-67483 10 ottflg,0 otttyp,",
        ])
        #expect(pings.allSatisfy { !$0.url.contains("4335E8A9") && !$0.url.contains("Apple%20TV") })
    }

    @Test func invalidOTTInputIsReportedWithTheReason() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.updateOTT(["ottType": "airplay"])
        meter.api.updateOTT(["ottStatus": "yes"])
        meter.api.updateOTT(["ottStatus": "1", "ottType": "bluetooth"])
        meter.api.updateOTT(42)
        meter.api.loadMetadata(Fixtures.content())
        meter.play([0])
        let pings = await meter.pings()
        #expect(errors.codes == [2, 2, 2, 2])
        #expect(errors.descriptions[0].contains("'ottStatus' is missing"))
        #expect(errors.descriptions[1].contains("\"yes\", not \"0\" or \"1\""))
        #expect(errors.descriptions[2].contains("\"bluetooth\", not one of airplay, mirroring, casting, other; sent as other"))
        #expect(pings.map(Self.ott) == ["ottflg,1 otttyp,other"])
    }

    /// The simplified API's example `ottData` (numbers where the others use strings).
    @Test func trackEventOttDataIsUpdateOTT() async {
        let meter = MeterHarness(simplified: true)
        var event: [String: Any] = ["event": "playhead", "type": "content", "metadata": ["content": Fixtures.content()]]
        for second in 0...20 {
            meter.clock.advance(by: 1)
            if second == 10 {
                event["ottData"] = ["ottStatus": 1, "ottType": "casting", "ottDevice": "chromecast", "ottDeviceID": 1234] as [String: Any]
            }
            event["playheadPosition"] = String(second)
            meter.tracker.trackEvent(event)
        }
        meter.tracker.trackEvent(["event": "complete", "type": "content"])
        let pings = await meter.pings()
        #expect(pings.map { "\($0.summary) \(Self.ott($0))" } == [
            "view content/vid345-67483 0 ottflg,0 otttyp,",
            "timer content/vid345-67483 9 ottflg,0 otttyp,",       // 0…9 on the phone
            "timer content/vid345-67483 11 ottflg,1 otttyp,casting",  // 9…20 cast
        ])
    }
}
