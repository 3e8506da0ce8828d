import Foundation
import WebAuthn

/// A request body or payload that has a fast path: decoded from ``FastJSON``'s scan when the input is in its
/// subset and every member is present with the expected type, and nil otherwise (the caller then decodes with
/// `JSONDecoder`, which gives the result or the error it always did).
protocol FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member])
}

extension FastJSONDecodable {
    /// Decodes `bytes` (one top-level object) on the fast path, or returns nil.
    init?(fastJSON bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = FastJSON.withObject(bytes, { Self(fastJSON: $0, members: $1) }) else { return nil }
        self = value
    }
}

extension FastJSON {
    /// A required Boolean member; nil when absent or of another type.
    func requiredBool(_ name: StaticString, in members: [Member]) -> Bool? {
        guard case .bool(let value)? = member(name, in: members) else { return nil }
        return value
    }

    /// An optional Boolean member: `.some(nil)` when absent or null, nil (give up) when of another type.
    func optionalBool(_ name: StaticString, in members: [Member]) -> Bool?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .bool(let value)?: return .some(value)
        default: return nil
        }
    }

    /// An optional member of a type with a fast path: `.some(nil)` when absent or null, nil (give up) when it is
    /// not an object or its own fast path gives up.
    func optional<T: FastJSONDecodable>(_ name: StaticString, in members: [Member], as type: T.Type) -> T?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .object(let object)?: return T(fastJSON: self, members: object).map { .some($0) }
        default: return nil
        }
    }

    func required<T: FastJSONDecodable>(_ name: StaticString, in members: [Member], as type: T.Type) -> T? {
        guard let object = requiredObject(name, in: members) else { return nil }
        return T(fastJSON: self, members: object)
    }

    /// An optional array of strings.
    func optionalStrings(_ name: StaticString, in members: [Member]) -> [String]?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .array(let items)?:
            var result = [String]()
            result.reserveCapacity(items.count)
            for item in items {
                guard case .string(let range) = item else { return nil }
                result.append(string(range))
            }
            return .some(result)
        default: return nil
        }
    }

    /// A date written as `JSONEncoder.DateEncodingStrategy.secondsSince1970` writes it (flow payloads).
    func requiredSecondsSince1970(_ name: StaticString, in members: [Member]) -> Date? {
        guard let value = member(name, in: members), let seconds = double(value) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A required string that must be one of an enumeration's raw values.
    func requiredRawValue<T: RawRepresentable>(_ name: StaticString, in members: [Member], as type: T.Type) -> T?
    where T.RawValue == String {
        requiredString(name, in: members).flatMap(T.init(rawValue:))
    }
}
