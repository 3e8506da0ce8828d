import Foundation
import HTTPTypes
import PasskeyServer
import WebAuthn

/// A browser as the web pages see it, in process: it keeps the session cookie, reads the CSRF token from the
/// page it loaded, and posts forms and JSON the way the pages' scripts do.
final class WebClient: @unchecked Sendable {
    let api: API
    /// The cookies the server set, by name (paths are not told apart: the demo's and the console's have other names).
    private var jar: [(name: String, value: String)] = []
    private(set) var csrfToken: String?
    /// The `Set-Cookie` of the last response that set one.
    private(set) var lastSetCookie: String?

    init(_ api: API) { self.api = api }

    /// Loads a page: keeps its CSRF token.
    @discardableResult
    func get(_ path: String) async throws -> APIResponse {
        let response = try await send(.get, path, body: nil, contentType: nil)
        if let token = Self.metaCSRFToken(response.text) { csrfToken = token }
        return response
    }

    /// Submits a form (`application/x-www-form-urlencoded`), with the page's CSRF token unless `csrf` is false.
    @discardableResult
    func submit(_ path: String, _ fields: [String: String] = [:], csrf: Bool = true) async throws -> APIResponse {
        var all = fields
        if csrf, let csrfToken { all["csrfToken"] = csrfToken }
        let body = all.sorted { $0.key < $1.key }.map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }
            .joined(separator: "&")
        return try await send(.post, path, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Posts JSON to the demo's endpoints, with the CSRF header as the pages' script sends it.
    func post(
        _ path: String,
        json: String = "{}",
        csrf: Bool = true,
        headers: HTTPFields = [:]
    ) async throws -> APIResponse {
        var headers = headers
        if csrf, let csrfToken { headers[HTTPField.Name("X-CSRF-Token")!] = csrfToken }
        return try await send(.post, path, body: Array(json.utf8), contentType: "application/json", headers: headers)
    }

    func post(_ path: String, body: some Encodable) async throws -> APIResponse {
        try await post(path, json: String(decoding: JSON.encode(body), as: UTF8.self))
    }

    /// The `Cookie` header the client sends.
    var cookie: String? { jar.isEmpty ? nil : jar.map { "\($0.name)=\($0.value)" }.joined(separator: "; ") }

    /// Replaces the stored cookies with those of a `Cookie` header (to present a forged or foreign one).
    func setCookie(_ header: String?) {
        jar = (header ?? "").split(separator: ";").compactMap { pair in
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    private func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        body: [UInt8]?,
        contentType: String?,
        headers extra: HTTPFields = [:]
    ) async throws -> APIResponse {
        var headers = extra
        if let cookie { headers[.cookie] = cookie }
        let response = try await api.send(method, path, body: body, contentType: contentType, headers: headers)
        for setCookie in response.headers[values: .setCookie] {
            lastSetCookie = setCookie
            guard let pair = setCookie.split(separator: ";").first,
                let equals = pair.firstIndex(of: "=")
            else { continue }
            let name = String(pair[..<equals])
            jar.removeAll { $0.name == name }
            if !setCookie.contains("Max-Age=0") { jar.append((name, String(pair[pair.index(after: equals)...]))) }
        }
        return response
    }

    static func metaCSRFToken(_ html: String) -> String? {
        guard let range = html.range(of: #"<meta name="csrf-token" content=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
