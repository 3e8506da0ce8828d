/// The one error type of storage adapters.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code.rawValue): \(reason)" }

    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A credential with this id exists already.
        public static let credentialExists = Self(rawValue: "CREDENTIAL_EXISTS")
        /// The user has the maximum number of live credentials.
        public static let limitReached = Self(rawValue: "LIMIT_REACHED")
        /// Another live credential of the user has this name; or, creating a user, another user has the user name.
        public static let nameTaken = Self(rawValue: "NAME_TAKEN")
        /// A record the operation needs does not exist, or a flow is not in a state that allows it.
        public static let notFound = Self(rawValue: "NOT_FOUND")
        /// The flow was ended — by a reset of its user (see ``PasskeyStore``) or by an abort — and can no longer
        /// complete.
        public static let flowEnded = Self(rawValue: "FLOW_ENDED")
        /// A record with this id exists already.
        public static let duplicate = Self(rawValue: "DUPLICATE")
        /// The database could not be reached or failed; retrying may help.
        public static let unavailable = Self(rawValue: "UNAVAILABLE")
        /// Stored data could not be decoded: a bug or a damaged database.
        public static let corrupt = Self(rawValue: "CORRUPT")
    }
}
