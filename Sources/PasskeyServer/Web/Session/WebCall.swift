import Foundation
import Hummingbird
import PasskeyStorage

/// One request to a page or to the pages' own endpoints: the browser's cookie for this part of the pages (a new
/// anonymous one when it has none, or an expired or forged one), who is signed in through it, the submitted form
/// fields, and who is acting.
struct WebCall: Sendable {
    let request: Request
    let context: PasskeyRequestContext
    /// The cookie of the part of the pages this request is for.
    let cookies: WebSessionCookies
    var session: WebSession
    /// The signed-in session the cookie's secret names in the store, if it has not ended.
    var signedIn: WebSessionRecord?
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

    /// The signed-in user's id, or `SIGN_IN_REQUIRED`.
    func signedInUserID() throws(APIError) -> String {
        guard let id = signedIn?.userID else { throw APIError.signInRequired }
        return id
    }

    /// The signed-in operator's name, or `SIGN_IN_REQUIRED`.
    func operatorName() throws(APIError) -> String {
        guard let name = signedIn?.operatorName else { throw APIError.signInRequired }
        return name
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
