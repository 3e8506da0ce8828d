import HTTPTypes

extension APIError.Code {
    /// The API key is valid but does not grant the scope this route needs; the message names both. Add the scope to
    /// the key's `scopes` in `apiKeys`, or call with a key that has it.
    public static let insufficientScope = Self(rawValue: "INSUFFICIENT_SCOPE")
}

/// The codes of the backend API keys' scopes (``APIScope``).
extension APIError {
    static let apiKeys: [Code] = [.insufficientScope]

    static func insufficientScope(_ scope: APIScope, keyName: String) -> Self {
        Self(
            .insufficientScope,
            .forbidden,
            "The API key '\(keyName)' does not grant the scope '\(scope.rawValue)' this route needs: add it to the key's scopes in apiKeys, or call with a key that has it."
        )
    }
}
