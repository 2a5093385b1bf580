import AppMeter
import NIOConcurrencyHelpers

/// The demo's viewability provider: the scenario says what the viewer sees and hears (no screen
/// on a server), and it reports that to the SDK as a platform provider would.
final class DemoViewability: ViewabilityProvider {
    private let report = NIOLockedValueBox((@Sendable (ViewabilitySample) -> Void)?.none)

    func start(_ target: ViewabilityTarget, report: @escaping @Sendable (ViewabilitySample) -> Void) {
        self.report.withLockedValue { $0 = report }
    }

    func stop() { report.withLockedValue { $0 = nil } }

    /// A phone in portrait with a 16:9 player: `visible` % of it on screen, the volume at `volume` %.
    func show(visible: Int, volume: Int) {
        let report = self.report.withLockedValue { $0 }
        report?(ViewabilitySample(
            visiblePercent: visible, volumePercent: volume, screen: PixelSize(width: 1170, height: 2532),
            window: PixelSize(width: 1170, height: 2532), player: PixelSize(width: 1170, height: 658)))
    }
}
