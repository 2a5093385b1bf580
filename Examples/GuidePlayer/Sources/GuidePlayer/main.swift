// docs/integration.md, "A first measured video", as written there; what differs is marked
// "example:". Usage: GuidePlayer <census URL> [appid] [seconds]   (scripts/integration-check runs it)
import Foundation   // NSObject (an app's UIKit import brings it too)
import NielsenAppApi

final class Player: NSObject, NielsenAppApiDelegate {
    var nielsen: NielsenAppApi?
    let appid: String            // example: the guide's placeholder appid, given on the command line
    let collectorURL: String     // example: "Testing on a device", nol_collectorURL

    init(appid: String, collectorURL: String) {
        self.appid = appid
        self.collectorURL = collectorURL
    }

    func start() {
        nielsen = NielsenAppApi(appInfo: ["appid": appid, "sfcode": "dcr",
                                          "nol_devDebug": "DEBUG",
                                          "nol_collectorURL": collectorURL], delegate: self)   // nil: bad appid (error 1007)
        nielsen?.play(["channelName": "My Channel"])
        nielsen?.loadMetadata(["type": "content", "assetid": "vid-1", "program": "Show", "title": "S1E1",
                               "length": "3600", "airdate": "20261121 20:00:00", "isfullepisode": "y",
                               "adloadtype": "2"])
    }
    func tick(_ seconds: Int64) { nielsen?.playheadPosition(seconds) }   // every second of playback
    func finished() { nielsen?.end() }

    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) {
        print("measurement:", error["eventCode"] ?? "", error["eventDescription"] ?? "")
    }
}

// example: the player's life in a command-line program.
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: GuidePlayer <census URL> [appid] [seconds]")
    exit(2)
}
let player = Player(appid: arguments.count > 2 ? arguments[2] : "P5D1C0A6B-3E4F-4A1B-9C2D-7E8F90A1B2C3",
                    collectorURL: arguments[1])
let seconds = arguments.count > 3 ? Int64(arguments[3]) ?? 60 : 60
player.start()
guard player.nielsen != nil else { exit(1) }
// Playheads are positions, not wall time: the example plays its seconds at once.
for position in 0...seconds { player.tick(position) }
player.finished()
await player.nielsen?.flush()   // the guide: a process that must not exit before delivery
print("played \(seconds) s of vid-1; delivery:", player.nielsen?.diagnostics ?? [:])
