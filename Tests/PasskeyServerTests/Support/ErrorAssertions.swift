import HTTPTypes
import PasskeyServer
import Testing
import WebAuthn

/// Checks an error response as DESIGN §3 defines it: the status, a JSON body of exactly
/// `{"error": {"code", "message", "retryable", "requestId"}}`, and an `X-Request-Id` header equal to `requestId`.
/// Every error test goes through here.
func expectError(
    _ response: APIResponse,
    _ code: String,
    _ status: HTTPResponse.Status,
    retryable: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        response.status == status,
        "expected \(status.code) \(code), got \(response)",
        sourceLocation: sourceLocation
    )
    #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
    guard let body = try? response.json(), let top = body.object, let error = top["error"]?.object else {
        Issue.record("not a JSON error body: \(response)", sourceLocation: sourceLocation)
        return
    }
    #expect(Set(top.keys) == ["error"], "\(response)", sourceLocation: sourceLocation)
    #expect(
        Set(error.keys) == ["code", "message", "retryable", "requestId"],
        "\(response)",
        sourceLocation: sourceLocation
    )
    #expect(error["code"]?.string == code, "\(response)", sourceLocation: sourceLocation)
    #expect(error["message"]?.string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(error["retryable"]?.bool != nil, sourceLocation: sourceLocation)
    if let retryable {
        #expect(error["retryable"]?.bool == retryable, sourceLocation: sourceLocation)
    }
    let requestID = error["requestId"]?.string
    #expect(requestID?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(response.headers[API.requestIDHeader] == requestID, sourceLocation: sourceLocation)
}

/// The error code of a response, if it is an error body.
func errorCode(_ response: APIResponse) -> String? {
    (try? response.json())?["error"]?["code"]?.string
}
