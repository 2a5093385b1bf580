import CensusStore
import ServiceLifecycle

/// Ends the dashboards' event streams when the server shuts down gracefully: they never end by
/// themselves and would hold the HTTP server's shutdown. Listed after the application in the
/// service group, so it is told first.
package struct LiveFeedCloser: Service {
    let feed: LiveFeed

    /// Closes `feed` at graceful shutdown.
    package init(feed: LiveFeed) {
        self.feed = feed
    }

    package func run() async throws {
        try? await gracefulShutdown()
        feed.close()
    }
}
