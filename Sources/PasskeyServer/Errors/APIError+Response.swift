public import Hummingbird

extension APIError: HTTPResponseError {
    /// The JSON error body of DESIGN §3, carrying the request id of a ``PasskeyRequestContext``.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(requestID: (context as? PasskeyRequestContext)?.requestID ?? "")
    }

    /// The JSON error body of DESIGN §3.
    func response(requestID: String) -> Response {
        assert(Self.all.contains(code), "\(code) is answered but not listed in APIError.all: add it to its file's list")
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
                let retryable: Bool
                let requestId: String
            }
            let error: Detail
        }
        var response = JSONBody.response(
            Body(error: .init(code: code.rawValue, message: message, retryable: retryable, requestId: requestID)),
            status: status
        )
        for field in headers { response.headers.append(field) }
        return response
    }
}
