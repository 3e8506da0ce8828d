import Foundation
import Hummingbird

/// One request to a page or to the demo's own endpoints: the browser's session (a new anonymous one when it
/// has none, or an expired or forged one), the submitted form fields, and who is acting.
struct WebCall: Sendable {
    let request: Request
    let context: PasskeyRequestContext
    var session: WebSession
    let csrfToken: String
    /// The fields of a submitted `application/x-www-form-urlencoded` form.
    let form: [String: String]
    let now: Date

    /// The actor written to the audit log.
    func caller(_ actor: String) -> Caller {
        Caller(actor: actor, requestID: context.requestID, clientIP: context.clientIP)
    }

    /// The query parameter `name`, when it is short enough to be one of ours.
    func query(_ name: String) -> String? {
        request.uri.queryParameters[name[...]].map(String.init).flatMap { $0.utf8.count <= 256 ? $0 : nil }
    }

    /// The signed-in demo user, or `SIGN_IN_REQUIRED`.
    func signedInUser() throws(APIError) -> (id: String, name: String) {
        guard let id = session.userID else { throw APIError.signInRequired }
        return (id, session.userName ?? id)
    }
}

extension WebCall {
    /// Largest form body accepted (the pages' forms carry a name and a token).
    static let formLimit = 16 * 1024

    /// Parses `a=1&b=two+words` (percent-decoding, `+` as a space); the first value of a repeated field wins.
    static func parseForm(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decoded(parts[0]), !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? decoded(parts[1]) ?? "" : ""
        }
        return fields
    }
}
