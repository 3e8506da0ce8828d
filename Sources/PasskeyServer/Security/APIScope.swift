/// What a backend API key may do: each backend route names the one scope it needs (``Route/scope``), and
/// ``Route/respond(_:_:service:)`` refuses a key without it (`INSUFFICIENT_SCOPE`, 403) before the handler runs.
/// A key lists its scopes in the configuration (`apiKeys[].scopes`); a key that lists none has ``all``.
public enum APIScope: String, Sendable, CaseIterable, Codable {
    /// Registration attempts: create, read, finalize, abort.
    case registrations
    /// Sign-ins and step-ups: create, redeem, hand off to a phone.
    case authentications
    /// A user's passkeys and one passkey, read.
    case credentialsRead = "credentials:read"
    /// A passkey renamed or revoked.
    case credentialsWrite = "credentials:write"
    /// Users listed, searched and deleted.
    case users
    /// Recovery attempts: create, read, finalize, cancel.
    case recoveries
    /// Identity-verification runs, read.
    case identityVerificationRead = "identity-verification:read"
    /// Decisions posted for runs of the simulated identity-verification provider.
    case identityVerificationDecide = "identity-verification:decide"
    /// The audit log, read.
    case auditRead = "audit:read"
    /// The operator console's break-glass sign-in with the key (no backend route needs it).
    case console
    /// Every scope, including any added later.
    case all = "*"

    /// The scopes a configuration may name, as written there.
    public static var names: [String] { allCases.map(\.rawValue) }
}

extension ServerConfiguration.APIKey {
    /// Whether the key may act in `scope`: it lists that scope, or `*`, or no scopes at all.
    public func grants(_ scope: APIScope) -> Bool {
        guard let scopes else { return true }
        return scopes.contains(APIScope.all.rawValue) || scopes.contains(scope.rawValue)
    }
}
