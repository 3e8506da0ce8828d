import Foundation

/// JSON requests to the passkey server: paths below the base URL, bearer tokens, ISO 8601 dates, and error
/// bodies (`{"error": {"code", "message", "retryable", "requestId"}}`) mapped to ``PasskeyError``.
struct APIRequester: Sendable {
    let baseURL: URL
    let timeout: Duration
    let transport: any HTTPTransport
    /// Whether the bearer token is a backend API key: then a refused token is a wrong key, said as such, not an
    /// ended session.
    var tokenIsAPIKey = false

    /// Sends `body` (or nothing) and decodes the answer as `Response`.
    func send<Response: Decodable>(
        _ method: String,
        _ path: [String],
        query: [URLQueryItem] = [],
        token: String?,
        body: (some Encodable)?,
        as: Response.Type
    ) async throws(PasskeyError) -> Response {
        let bytes = try await sendRaw(method, path, query: query, token: token, body: body)
        return try decode(Response.self, from: bytes, path: path)
    }

    /// Sends and returns the raw body of a successful answer.
    func sendRaw(
        _ method: String,
        _ path: [String],
        query: [URLQueryItem] = [],
        token: String?,
        body: (some Encodable)?
    ) async throws(PasskeyError) -> [UInt8] {
        var headers = ["Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var encoded: [UInt8]?
        if let body {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                encoded = Array(try encoder.encode(body))
            } catch {
                throw PasskeyError(.invalidInput, "The request body cannot be encoded as JSON.", cause: error)
            }
            headers["Content-Type"] = "application/json"
        }
        let response = try await transport.send(
            HTTPTransportRequest(
                method: method,
                url: query.isEmpty ? url(path) : url(path).appending(queryItems: query),
                headers: headers,
                body: encoded ?? (method == "POST" ? Array("{}".utf8) : nil),
                timeout: timeout
            )
        )
        guard (200..<300).contains(response.status) else {
            let error = Self.error(for: response)
            guard tokenIsAPIKey, error.serverCode == "UNAUTHENTICATED" else { throw error }
            throw PasskeyError(
                .invalidConfiguration,
                "The server refused the API key: it is not one of its backend API keys. Check PASSKEYS_API_KEY (or the key you pass); passkeys serve prints its development key and keeps it beside its database.",
                serverCode: error.serverCode,
                httpStatus: error.httpStatus,
                requestId: error.requestId
            )
        }
        return response.body
    }

    func url(_ path: [String]) -> URL {
        var url = baseURL
        for segment in path { url.appendPathComponent(segment) }
        return url
    }

    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], path: [String]) throws(PasskeyError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601Parsing.date(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)")
                )
            }
            return date
        }
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw PasskeyError(
                .serverError,
                "The answer to /\(path.joined(separator: "/")) is not what this SDK expects; is serverBaseURL the passkey server?",
                cause: error
            )
        }
    }

    /// The ``PasskeyError`` for a failed answer, from its JSON error body when it has one.
    static func error(for response: HTTPTransportResponse) -> PasskeyError {
        struct Body: Decodable {
            struct Detail: Decodable {
                let code: String
                let message: String?
                let retryable: Bool?
                let requestId: String?
            }
            let error: Detail
        }
        let requestId = response.headers["x-request-id"]
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(response.body)) else {
            return PasskeyError(httpStatus: response.status, requestId: requestId)
        }
        return PasskeyError(
            serverCode: body.error.code,
            message: body.error.message ?? "The server reported \(body.error.code).",
            retryable: body.error.retryable,
            httpStatus: response.status,
            requestId: body.error.requestId ?? requestId
        )
    }
}

enum ISO8601Parsing {
    static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}

/// An encodable value standing for "no body".
struct EmptyBody: Encodable, Sendable {}
