import MeterContract

/// Viewability and audibility (the simplified guide "Viewability and Audibility"), once
/// `trackViewability` started it: the provider's latest sample is read at each playhead (or DTVR
/// tag offset) of the asset being credited, extending the time series of ``ViewabilityReport``; the
/// series go out in a viewability ping each time the asset's measurement ping goes out ("the same
/// rules as measurement pings"), and start again from the next playhead.
struct ViewabilityPart: Sendable {
    /// An item being extended: its first and last offsets.
    private struct OpenItem: Sendable {
        var value: ViewabilityReport.Value
        var startOffset: Int64
        var startTimestamp: Int64
        var lastOffset: Int64
    }

    private(set) var target: ViewabilityTarget?
    private var sample: ViewabilitySample?
    /// The asset the open series belong to.
    private var asset: AssetKey?
    private var series: [ViewabilityReport.Series: [OpenItem]] = [:]

    /// Whether `trackViewability` started measurement.
    var isTracking: Bool { target != nil }

    mutating func start(_ target: ViewabilityTarget) {
        self.target = target
    }

    /// The provider's latest measurement.
    mutating func update(_ sample: ViewabilitySample) {
        self.sample = sample
    }

    /// A playhead (or tag offset) of `asset` at `time`: every series takes the latest sample.
    mutating func observe(offset: Int64, asset: AssetKey, at time: MeterInstant) {
        guard isTracking, let sample else { return }
        if self.asset != asset {
            series.removeAll()
            self.asset = asset
        }
        for name in ViewabilityReport.Series.allCases {
            extend(name, with: Self.value(of: name, in: sample), offset: offset, at: time)
        }
    }

    /// The series collected for `asset` since the last flush, which start again afterwards.
    mutating func flush(asset: AssetKey) -> ViewabilityReport? {
        guard self.asset == asset, !series.isEmpty else { return nil }
        let report = ViewabilityReport(series: series.mapValues { items in
            items.map {
                ViewabilityReport.Item(value: $0.value, startOffset: $0.startOffset, startTimestamp: $0.startTimestamp,
                                       duration: max(0, $0.lastOffset - $0.startOffset))
            }
        })
        series.removeAll()
        return report
    }

    private mutating func extend(_ name: ViewabilityReport.Series, with value: ViewabilityReport.Value, offset: Int64, at time: MeterInstant) {
        var items = series[name, default: []]
        if var last = items.last, !Self.startsNewItem(name, from: last.value, to: value) {
            last.lastOffset = offset
            items[items.count - 1] = last
        } else {
            items.append(OpenItem(value: value, startOffset: offset, startTimestamp: time.unixSeconds, lastOffset: offset))
        }
        series[name] = items
    }

    /// A percent that moved by the series' threshold or more, or any other size.
    private static func startsNewItem(_ name: ViewabilityReport.Series, from old: ViewabilityReport.Value, to new: ViewabilityReport.Value) -> Bool {
        switch (old, new, name.threshold) {
        case (.percent(let before), .percent(let after), let threshold?): abs(after - before) >= threshold
        default: old != new
        }
    }

    private static func value(of name: ViewabilityReport.Series, in sample: ViewabilitySample) -> ViewabilityReport.Value {
        switch name {
        case .invs: .percent(sample.visiblePercent)
        case .inau: .percent(sample.volumePercent)
        case .inss: .size(sample.screen.wireValue)
        case .invp: .size(sample.window.wireValue)
        case .ines: .size(sample.player.wireValue)
        }
    }
}
