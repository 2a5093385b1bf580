import CensusStore
import Hummingbird

extension RefusalCategory {
    /// The category a refusal answered `status` has when its sender names none: 403 an app the
    /// census does not take, 413 a size limit, anything else malformed.
    static func answered(_ status: HTTPResponse.Status) -> RefusalCategory {
        switch status {
        case .forbidden: .unregisteredApp
        case .contentTooLarge: .tooLarge
        default: .malformed
        }
    }
}
