/// A size in pixels, sent as `"WxH"`.
public struct PixelSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `"WxH"`.
    public var wireValue: String { "\(width)x\(height)" }
}

/// What a ``ViewabilityProvider`` measured at one moment.
public struct ViewabilitySample: Sendable, Equatable {
    /// The share of the player view on screen (unobstructed but for friendly obstructions), 0–100.
    public var visiblePercent: Int
    /// The output volume, 0–100; 0 when muted.
    public var volumePercent: Int
    /// The device screen.
    public var screen: PixelSize
    /// The app's window (smaller than the screen in split view or on a desktop).
    public var window: PixelSize
    /// The player view.
    public var player: PixelSize

    /// Creates a sample; percents are clamped to 0–100.
    public init(visiblePercent: Int, volumePercent: Int, screen: PixelSize, window: PixelSize, player: PixelSize) {
        self.visiblePercent = min(100, max(0, visiblePercent))
        self.volumePercent = min(100, max(0, volumePercent))
        self.screen = screen
        self.window = window
        self.player = player
    }
}

/// What `trackViewability` asks to measure: the player view and what may cover it harmlessly,
/// by their view tags (the guides' `containerId` is a `UIView` tag).
public struct ViewabilityTarget: Sendable, Equatable {
    /// `viewTag`: the tag of the player view (default: appInfo `containerId`).
    public var viewTag: Int
    /// `viewContainer`: the tag of the view that clips the player (a scroll view), if any.
    public var containerTag: Int?
    /// `friendlyObstructions`: tags of views over the player that do not count as covering it
    /// (the player's own controls).
    public var friendlyObstructionTags: [Int]

    public init(viewTag: Int, containerTag: Int? = nil, friendlyObstructionTags: [Int] = []) {
        self.viewTag = viewTag
        self.containerTag = containerTag
        self.friendlyObstructionTags = friendlyObstructionTags
    }
}

/// Measures what the viewer can see and hear of the player: platform geometry and audio. The
/// SDK ships one for UIKit (`UIKitViewabilityProvider`); elsewhere (Linux players, tests) the app
/// injects its own through ``MeterEnvironment/viewabilityProvider``.
public protocol ViewabilityProvider: Sendable {
    /// Starts measuring `target`, calling `report` with a sample at least once a second while
    /// measuring (from any thread), until ``stop()``.
    func start(_ target: ViewabilityTarget, report: @escaping @Sendable (ViewabilitySample) -> Void)
    /// Stops measuring.
    func stop()
}
