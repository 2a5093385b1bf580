import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// `init` returns nil as documented, and the delegate hears why with the documented code and a
/// message naming the bad key: there is no instance whose `lastErrorDict` the app could read.
@Suite struct InitFailureTests {
    static let cases: [(appInfo: String, code: Int, names: String)] = [
        (#"{"appname": "Harness", "appversion": "1.0", "sfcode": "dcr"}"#, 1007, "'appid'"),
        (#"{"appid": "not-an-appid", "appname": "Harness", "appversion": "1.0"}"#, 1007, "appid"),
        (#"["appid", "P00000000-0000-4000-8000-000000000001"]"#, 1004, "appInfo"),
    ]

    /// Waits (bounded) for the delegate to hear something: it is told on an SDK-owned task.
    static func heard(_ collector: ErrorCollector) async -> [Int] {
        for _ in 0..<500 where collector.codes.isEmpty { try? await Task.sleep(for: .milliseconds(2)) }
        return collector.codes
    }

    @Test(arguments: cases)
    func theStandardAPIsDelegateHearsWhy(_ appInfo: String, _ code: Int, _ names: String) async {
        let collector = ErrorCollector()
        #expect(NielsenAppApi(appInfo: appInfo, delegate: collector, environment: LimitsAndNamesTests.environment()) == nil)
        #expect(await Self.heard(collector) == [code])
        #expect(collector.descriptions.first?.contains(names) == true)
        #expect(collector.descriptions.first?.hasPrefix("NielsenAppApi not created: ") == true)
    }

    @Test(arguments: cases)
    func theTrackersDelegateHearsWhy(_ appInfo: String, _ code: Int, _ names: String) async {
        let collector = ErrorCollector()
        #expect(NielsenEventTracker(appInfo: appInfo, delegate: collector, environment: LimitsAndNamesTests.environment()) == nil)
        #expect(await Self.heard(collector) == [code])
        #expect(collector.descriptions.first?.contains(names) == true)
    }

    @Test func aFifthInstanceIsRefusedWithCode6() async {
        let appInfo = MeterHarness.appInfo()
        let live = (1...4).compactMap { _ in NielsenAppApi(appInfo: appInfo, delegate: nil, environment: LimitsAndNamesTests.environment()) }
        #expect(live.count == 4)
        let collector = ErrorCollector()
        #expect(NielsenAppApi(appInfo: appInfo, delegate: collector, environment: LimitsAndNamesTests.environment()) == nil)
        #expect(await Self.heard(collector) == [6])
        #expect(collector.descriptions.first?.contains("four live instances") == true)
    }
}
