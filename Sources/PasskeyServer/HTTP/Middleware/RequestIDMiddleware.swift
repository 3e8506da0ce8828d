import HTTPTypes
import Hummingbird
import Logging

/// Gives every request its id: the caller's `X-Request-Id` when it is short and plain, otherwise a new one. The id
/// goes into the logger's metadata, into error bodies and back out in the response's `X-Request-Id`.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    static let header = HTTPField.Name("X-Request-Id")!

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestID = Self.requestID(from: request)
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        var response = try await next(request, context)
        response.headers[Self.header] = context.requestID
        return response
    }

    static func requestID(from request: Request) -> String {
        if let given = request.headers[header], (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == 0x2D || $0 == 0x5F })
        {
            return given
        }
        return Secrets.identifier(prefix: "req_")
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
