import Foundation
import PasskeyClient

/// The real transport (``URLSessionTransport``) with every exchange recorded, to see what went over the wire to a
/// live server: how many requests a call made, and the values (tokens, challenges, signatures) it carried.
actor RecordingTransport: HTTPTransport {
    private let transport = URLSessionTransport()
    private(set) var exchanges: [(request: HTTPTransportRequest, response: HTTPTransportResponse?)] = []

    func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse {
        do {
            let response = try await transport.send(request)
            exchanges.append((request, response))
            return response
        } catch {
            exchanges.append((request, nil))
            throw error
        }
    }

    var requestCount: Int { exchanges.count }

    /// The string values of the JSON fields named `names`, at any depth, in every request and response body, and the
    /// bearer tokens of the requests' `Authorization` headers.
    func values(named names: Set<String>) -> [String] {
        var found: [String] = []
        for (request, response) in exchanges {
            if let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") {
                found.append(String(authorization.dropFirst("Bearer ".count)))
            }
            for body in [request.body, response?.body].compactMap({ $0 }) {
                guard let json = try? JSONSerialization.jsonObject(with: Data(body)) else { continue }
                Self.collect(json, names: names, into: &found)
            }
        }
        return found
    }

    private static func collect(_ json: Any, names: Set<String>, into found: inout [String]) {
        if let object = json as? [String: Any] {
            for (key, value) in object {
                if names.contains(key), let text = value as? String { found.append(text) }
                collect(value, names: names, into: &found)
            }
        } else if let array = json as? [Any] {
            for value in array { collect(value, names: names, into: &found) }
        }
    }
}
