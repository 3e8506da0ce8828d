import Foundation

extension ServerConfiguration.APIKey {
    /// The name of the key given with `--api-key` or `PASSKEYS_API_KEY` (all scopes).
    public static let commandLineName = "command-line"
}

extension ServerConfiguration {
    /// One warning for each API key the configuration file holds in clear, when the relying party is not the
    /// development one (`localhost`): such a key should be kept as its hash (`sha256`, printed by
    /// `passkeys api-key hash`). The key of `--api-key` / `PASSKEYS_API_KEY` comes from outside the file and is not
    /// warned about.
    public var clearAPIKeyWarnings: [String] {
        guard rpId != "localhost" else { return [] }
        return apiKeys.enumerated().compactMap { index, key in
            guard key.key != nil, key.name != APIKey.commandLineName else { return nil }
            return
                "apiKeys[\(index)] ('\(key.name)') holds its key in clear: replace 'key' with 'sha256', as `passkeys api-key hash` prints it, so the file holds no secret"
        }
    }
}

extension ServerConfiguration.APIKey {
    /// The shortest key the configuration accepts.
    public static let minimumKeyLength = 24

    /// The configuration entry for `secret` kept as its hash: `sha256` is the key's SHA-256 in hex.
    public static func hashing(_ secret: String, name: String, scopes: [APIScope]? = nil) -> Self {
        Self(name: name, sha256: Secrets.hash(secret).map { String(format: "%02x", $0) }.joined(), scopes: scopes)
    }

    /// A new random key: `pk_` and 32 random bytes in base64url.
    public static func newSecret() -> String { Secrets.token(prefix: "pk_") }

    /// The entry as one line of JSON (which YAML reads as it is), for a configuration file's `apiKeys`.
    public var configurationLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and lists of strings always encode.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
