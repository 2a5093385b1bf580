import CensusHTTP
import CensusStore
import MeterTables
import Testing

/// The dashboards' live feed: what it sends, how many may watch, and that closing ends every stream.
@Suite struct LiveFeedTests {
    @Test func aWatcherGetsEachEventAsJSON() async {
        let feed = LiveFeed()
        guard let (_, events) = feed.watch() else { Issue.record("no watcher"); return }
        feed.publish(.reject(reason: "c27 is \"<b>\""))
        feed.publish(.ping(appid: "P1", pingID: "p1", pingType: "view", kind: "content", assetid: "a", seconds: 0))
        feed.close()
        var lines: [String] = []
        for await line in events { lines.append(line) }
        #expect(lines == [
            #"{"kind":"reject","reason":"c27 is \"<b>\""}"#,
            #"{"appid":"P1","assetid":"a","creditKind":"content","kind":"ping","pingID":"p1","pingType":"view","seconds":0}"#,
        ])
    }

    @Test func watchersAreBoundedAndAClosedFeedTakesNone() {
        let feed = LiveFeed()
        let watchers = (0..<LiveFeed.maxWatchers).compactMap { _ in feed.watch() }
        #expect(watchers.count == LiveFeed.maxWatchers)
        #expect(feed.watch() == nil)
        feed.stopWatching(watchers[0].id)
        #expect(feed.watch() != nil)
        feed.close()
        #expect(feed.watch() == nil)
    }

    @Test func aSlowWatcherKeepsOnlyTheNewestEvents() async {
        let feed = LiveFeed()
        guard let (_, events) = feed.watch() else { return }
        for index in 0..<(LiveFeed.bufferLimit + 100) { feed.publish(.reject(reason: String(index))) }
        feed.close()
        var count = 0
        for await _ in events { count += 1 }
        #expect(count == LiveFeed.bufferLimit)
    }
}
