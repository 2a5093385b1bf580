import AppMeter
import Logging

/// What both facades do to start: read appInfo leniently, parse it, and create the engine
/// instance — or say why not, at ERROR in the log and to the delegate (the documented init returns
/// nil, so there is no instance whose `lastErrorDict` the app could read).
enum FacadeSetup {
    /// Why a facade was not created: the error event its delegate hears.
    struct Failure: Error {
        let event: MeterEvent
    }

    static func makeInstance(
        appInfo: Any, environment: MeterEnvironment, facade: String, limitsInstances: Bool,
        events: @escaping @Sendable (MeterEvent) -> Void
    ) -> Result<MeterInstance, Failure> {
        let logger = environment.makeLogger(label: facade)
        func failure(_ code: MeterEventCode, _ message: String) -> Result<MeterInstance, Failure> {
            logger.error("\(facade) not created: \(message) (error \(code.rawValue))")
            return .failure(Failure(event: MeterEvent(
                code: code, description: "\(facade) not created: \(message)", timestamp: environment.clock.now().date)))
        }
        let values: [String: String]
        let inputIssues: [AppInfoIssue]
        switch UntypedInput.lenientDictionary(from: appInfo) {
        case .success(let parsed):
            values = parsed.values
            inputIssues = parsed.problems.map { AppInfoIssue(code: .emptyValue, message: "appInfo: \($0)") }
        case .failure(let error):
            return failure(.emptyValue, "appInfo \(error)")
        }
        let parsedInfo: AppInfo
        switch AppInfo.parse(values, inputIssues: inputIssues) {
        case .success(let info): parsedInfo = info
        case .failure(let error): return failure(error.code, error.message)
        }
        guard let instance = MeterInstance(
            appInfo: parsedInfo, environment: environment, limitsInstances: limitsInstances, events: events)
        else {
            return failure(.failedStartProcessor,
                           "appid \(parsedInfo.appID) already has four live instances; release one first")
        }
        return .success(instance)
    }
}

extension DelegateRelay {
    /// Tells `delegate` why its facade was not created, on an SDK-owned task as every event, with
    /// `placeholder` (an instance in the Initial state, which ignores every call) standing for the
    /// facade that does not exist.
    func reportFailedInit(_ failure: FacadeSetup.Failure, placeholder: some AnyObject & Sendable, delegate: AnyObject?) {
        guard let delegate else { return }
        let relay = DelegateRelay(notify: notify, standIn: standIn)
        relay.attach(api: placeholder, delegate: delegate)
        Task { [placeholder] in
            withExtendedLifetime(placeholder) { relay.deliver(failure.event) }
        }
    }
}
