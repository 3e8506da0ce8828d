import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Bounded JSON request decoding and JSON responses.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws(APIError) -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError.payloadTooLarge(limit)
        }
        // The hot routes' bodies have a fast path; anything it does not take (and every error) goes through
        // JSONDecoder.
        if let fast = T.self as? any FastJSONDecodable.Type,
            let value = buffer.withUnsafeReadableBytes({ fast.init(fastJSON: $0.assumingMemoryBound(to: UInt8.self)) })
                as? T
        {
            return value
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.invalidRequest("The request body is not valid: \(describe(error)).")
        } catch {
            throw APIError.invalidRequest("The request body is not valid JSON.")
        }
    }

    /// The value as the API's JSON: keys sorted, dates in ISO 8601.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let writable = value as? any JSONWritable, let bytes = JSONWriter.write(writable, dates: .iso8601) {
            return bytes
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        // Our response types hold only strings, numbers, booleans, dates and arrays of them; should one fail to
        // encode all the same (a non-finite number), the caller gets a 500 and the log the reason, not a crash.
        do {
            return raw(try encode(value), status: status, contentType: "application/json")
        } catch {
            Logger(label: "passkeys").error(
                "response cannot be encoded",
                metadata: ["type": "\(type(of: value))", "error": "\(error)"]
            )
            return raw(Array(encodingFailure.utf8), status: .internalServerError, contentType: "application/json")
        }
    }

    /// The body of a response that could not be encoded: ``APIError/unexpected``, written out by hand.
    static let encodingFailure =
        #"{"error":{"code":"INTERNAL_ERROR","message":"Something went wrong on the server; it has been logged. Retry later.","retryable":true}}"#

    static func raw(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, contentType: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty
                ? "the top level"
                : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' is missing at \(path(context.codingPath))"
        case .typeMismatch(_, let context): return "wrong type at \(path(context.codingPath))"
        case .valueNotFound(_, let context): return "null at \(path(context.codingPath))"
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default: return "undecodable"
        }
    }
}
