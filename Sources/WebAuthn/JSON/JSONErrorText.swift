import Foundation

/// Turns a `DecodingError` into a short sentence that names the JSON path.
enum JSONErrorText {
    static func describe(_ error: any Error) -> String {
        if let error = error as? WebAuthnError { return error.reason }
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty
                ? "the top level"
                : codingPath.reduce(into: "") { path, key in
                    path += key.intValue.map { "[\($0)]" } ?? (path.isEmpty ? key.stringValue : ".\(key.stringValue)")
                }
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "missing member '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context): return "wrong type at \(path(context.codingPath))"
        case .valueNotFound(_, let context): return "null where a value is required at \(path(context.codingPath))"
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default: return "undecodable JSON"
        }
    }
}
