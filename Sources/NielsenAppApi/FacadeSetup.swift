import AppMeter
import Logging

/// What both facades do to start: read appInfo leniently, parse it, and create the engine
/// instance — or log at ERROR why not (the documented init returns nil).
enum FacadeSetup {
    static func makeInstance(
        appInfo: Any, environment: MeterEnvironment, facade: String, limitsInstances: Bool,
        events: @escaping @Sendable (MeterEvent) -> Void
    ) -> MeterInstance? {
        let logger = environment.makeLogger(label: facade)
        let values: [String: String]
        let inputIssues: [AppInfoIssue]
        switch UntypedInput.lenientDictionary(from: appInfo) {
        case .success(let parsed):
            values = parsed.values
            inputIssues = parsed.problems.map { AppInfoIssue(code: .emptyValue, message: "appInfo: \($0)") }
        case .failure(let error):
            logger.error("\(facade) not created: appInfo \(error)")
            return nil
        }
        let parsedInfo: AppInfo
        switch AppInfo.parse(values, inputIssues: inputIssues) {
        case .success(let info): parsedInfo = info
        case .failure(let error):
            logger.error("\(facade) not created: \(error)")
            return nil
        }
        guard let instance = MeterInstance(
            appInfo: parsedInfo, environment: environment, limitsInstances: limitsInstances, events: events) else {
            logger.error("\(facade) not created: appid \(parsedInfo.appID) already has four live instances; release one first")
            return nil
        }
        return instance
    }
}
