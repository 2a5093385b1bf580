import CensusStore
import Foundation
import Hummingbird

extension Parameters {
    /// The path parameter `name` percent-decoded. The router matches the raw path, so an id
    /// that needs escapes (a space, `/`, `%`, anything beyond ASCII: senders choose their
    /// session ids) arrives escaped, as the dashboard sends it (`encodeURIComponent`); compared
    /// raw, it named no stored session. An escape that is not UTF-8 is a 400 naming the parameter.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw HTTPError(.badRequest, message: "the path's \(name) is not percent-encoded UTF-8")
        }
        return decoded
    }
}
