import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// The user's opt-out choice is the app's: made through one instance, every live instance of the
/// app (the instances sharing its storage) measures under it from its next ping on.
@Suite struct SharedOptOutTests {
    @Test(arguments: [false, true])
    func aChoiceThroughOneInstanceReachesTheOthers(_ sameAppID: Bool) async {
        let storage = InMemoryStorage()
        let transport = RecordingTransport()
        let appID = MeterHarness.newAppID()
        let player = MeterHarness(appInfo: MeterHarness.appInfo(appID: appID), storage: storage, transport: transport)
        let settings = MeterHarness(appInfo: MeterHarness.appInfo(appID: sameAppID ? appID : MeterHarness.newAppID()),
                                    storage: storage, transport: transport)
        player.api.play()
        player.api.loadMetadata(Fixtures.content())
        player.play(0...30)
        #expect(settings.api.userOptOut("nielsenappsdk://1"))
        #expect(player.api.optOutStatus)
        #expect(player.api.demographicId.isEmpty)
        player.play(31...50)
        #expect(settings.api.userOptOut("nielsenappsdk://0"))
        #expect(!player.api.optOutStatus)
        player.play(51...55)
        player.api.end()
        await settings.settle()
        let pings = await player.pings()
        #expect(pings.map { "\($0.summary) uoo=\($0["uoo"]!) c9=\($0["c9"]!.count > 6 ? "id" : "none")" } == [
            "view content/vid345-67483 0 uoo= c9=id",
            "timer content/vid345-67483 30 uoo= c9=id",
            "timer content/vid345-67483 20 uoo=true c9=none",
            "timer content/vid345-67483 5 uoo= c9=id",
        ])
        #expect(await player.creditedOnTheWire() == ["content/vid345-67483": 55])
        // The choice is stored once, by the instance it was made through.
        #expect(try storage.load("optout") == Data("0".utf8))
    }

    @Test func anotherAppsInstancesAreNotTouched() {
        let mine = MeterHarness()
        let theirs = MeterHarness()  // its own storage: another app, or another user's sandbox
        #expect(mine.api.userOptOut("nielsenappsdk://1"))
        #expect(mine.api.optOutStatus)
        #expect(!theirs.api.optOutStatus)
    }

    @Test func anInstanceCreatedAfterTheChoiceReadsIt() {
        let storage = InMemoryStorage()
        let first = MeterHarness(storage: storage)
        #expect(first.api.userOptOut("nielsenappsdk://1"))
        let later = MeterHarness(storage: storage, transport: first.transport)
        #expect(later.api.optOutStatus)
    }
}
