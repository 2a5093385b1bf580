#if canImport(UIKit) && canImport(AVFAudio) && !os(watchOS)
import AVFAudio
import UIKit

extension MeterEnvironment {
    /// UIKit's geometry and `AVAudioSession`'s volume.
    public static var platformViewabilityProvider: (any ViewabilityProvider)? { UIKitViewabilityProvider() }
}

/// Measures the player view found by its tag in the key window once a second on the main thread:
/// the share of it inside the window (and its container), the screen, window and player sizes in
/// pixels, and `AVAudioSession.outputVolume`. Hidden, transparent or detached views are 0 % visible.
/// Overlap by other views is not measured; `friendlyObstructions` therefore changes nothing yet.
public final class UIKitViewabilityProvider: ViewabilityProvider, @unchecked Sendable {
    // The timer is created, read and invalidated on the main thread only.
    private var timer: Timer?

    public init() {}

    public func start(_ target: ViewabilityTarget, report: @escaping @Sendable (ViewabilitySample) -> Void) {
        DispatchQueue.main.async {
            self.timer?.invalidate()
            self.timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                MainActor.assumeIsolated {
                    if let sample = Self.measure(target) { report(sample) }
                }
            }
            self.timer?.fire()
        }
    }

    public func stop() {
        DispatchQueue.main.async { self.timer?.invalidate() }
    }

    @MainActor
    private static func measure(_ target: ViewabilityTarget) -> ViewabilitySample? {
        let windows = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        guard let window = windows.first(where: \.isKeyWindow) ?? windows.first else { return nil }
        let scale = window.screen.scale
        func pixels(_ size: CGSize) -> PixelSize { PixelSize(width: Int(size.width * scale), height: Int(size.height * scale)) }
        let volume = Int((AVAudioSession.sharedInstance().outputVolume * 100).rounded())
        guard let player = window.viewWithTag(target.viewTag) else {
            return ViewabilitySample(visiblePercent: 0, volumePercent: volume, screen: pixels(window.screen.bounds.size),
                                     window: pixels(window.bounds.size), player: PixelSize(width: 0, height: 0))
        }
        var visibleRect = player.convert(player.bounds, to: window).intersection(window.bounds)
        if let tag = target.containerTag, let container = window.viewWithTag(tag) {
            visibleRect = visibleRect.intersection(container.convert(container.bounds, to: window))
        }
        let area = player.bounds.width * player.bounds.height
        let shown = player.isHidden || player.alpha < 0.01 || player.window == nil || visibleRect.isNull ? 0 : visibleRect.width * visibleRect.height
        let percent = area > 0 ? Int((shown / area * 100).rounded()) : 0
        return ViewabilitySample(visiblePercent: percent, volumePercent: volume, screen: pixels(window.screen.bounds.size),
                                 window: pixels(window.bounds.size), player: pixels(player.bounds.size))
    }
}
#else
extension MeterEnvironment {
    /// None off UIKit: inject one to measure viewability.
    public static var platformViewabilityProvider: (any ViewabilityProvider)? { nil }
}
#endif
