/// The body of a viewability ping (the simplified guide "Viewability and Audibility"): time
/// series of what the viewer could see and hear while the stream played, each item
/// `[value, start offset, start timestamp, duration]`:
///
/// - `invs`: the player view's intersection ratio with the screen, percent (a new item when it
///   moves by 5 or more); `inau`: the device volume, percent, 0 when muted (threshold 1);
/// - `inss`, `invp`, `ines`: the screen, window and player sizes, `"WxH"` pixels (any change);
/// - start offset: the first playhead (or ID3 offset) of the item; start timestamp: Unix seconds;
///   duration: the item's last playhead minus its first.
public struct ViewabilityReport: Sendable, Equatable {
    /// A series' name on the wire.
    public enum Series: String, Sendable, CaseIterable {
        case invs, inau, inss, invp, ines

        /// How far a percent series' value must move to start a new item (nil: sizes, any change).
        public var threshold: Int? {
            switch self {
            case .invs: 5
            case .inau: 1
            case .inss, .invp, .ines: nil
            }
        }
    }

    /// A measured value: a percent or a `"WxH"` size.
    public enum Value: Sendable, Hashable {
        case percent(Int)
        case size(String)
    }

    /// One item of a series.
    public struct Item: Sendable, Equatable {
        public var value: Value
        public var startOffset: Int64
        public var startTimestamp: Int64
        public var duration: Int64

        public init(value: Value, startOffset: Int64, startTimestamp: Int64, duration: Int64) {
            self.value = value
            self.startOffset = startOffset
            self.startTimestamp = startTimestamp
            self.duration = duration
        }
    }

    /// The series, each in time order (missing ones are empty).
    public var series: [Series: [Item]]

    public init(series: [Series: [Item]]) {
        self.series = series
    }

    /// The longest item duration a body may carry: a day, like a ping's `c27`.
    public static let maxItemDuration: Int64 = 86_400
    /// The longest body accepted by the census.
    public static let maxBodyBytes = 65_536
    /// The share of the player in view from which a second counts as viewable (the MRC's 50 %).
    public static let viewablePercent = 50

    /// Seconds with at least ``viewablePercent`` of the player on screen.
    public var viewableSeconds: Int64 { seconds(of: .invs) { $0 >= Self.viewablePercent } }
    /// Seconds with the volume above 0.
    public var audibleSeconds: Int64 { seconds(of: .inau) { $0 > 0 } }
    /// Seconds the intersection ratio was measured.
    public var measuredSeconds: Int64 { seconds(of: .invs) { _ in true } }

    private func seconds(of name: Series, where counts: (Int) -> Bool) -> Int64 {
        (series[name] ?? []).reduce(0) { total, item in
            if case .percent(let percent) = item.value, counts(percent) { return total + item.duration }
            return total
        }
    }

    /// The JSON body, keys sorted so that equal reports are equal bytes: `{"inau":[[v,offset,
    /// timestamp,duration],…],…}`, a percent as a number and a size as a string. Written here
    /// rather than by an encoder because the core that builds it has no Foundation.
    public var jsonBody: String {
        var body = "{"
        for (index, name) in Series.allCases.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() {
            body += index == 0 ? "\"" : ",\""
            body += name.rawValue + "\":["
            for (position, item) in (series[name] ?? []).enumerated() {
                body += position == 0 ? "[" : ",["
                switch item.value {
                case .percent(let percent): body += String(percent)
                case .size(let size): body += JSONText.quoted(size)
                }
                body += "," + String(item.startOffset) + "," + String(item.startTimestamp) + "," + String(item.duration) + "]"
            }
            body += "]"
        }
        return body + "}"
    }
}
