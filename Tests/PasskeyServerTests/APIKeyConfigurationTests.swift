import Foundation
import PasskeyServer
import Testing

/// `apiKeys` in a configuration file: a key as its hash or in clear, with scopes or without (every scope), each
/// refusal naming the field; and the warning a server outside development gives for a key kept in clear.
@Suite("API key configuration")
struct APIKeyConfigurationTests {
    static let hash = String(repeating: "ab", count: 32)

    static func load(_ keys: String, rpId: String = "localhost") throws(ConfigurationError) -> ServerConfiguration {
        let origin = rpId == "localhost" ? "http://localhost:8080" : "https://\(rpId)"
        let configuration = try ServerConfiguration(
            jsonData: Data(#"{"rpId": "\#(rpId)", "webOrigins": ["\#(origin)"], "apiKeys": \#(keys)}"#.utf8)
        )
        try configuration.validate()
        return configuration
    }

    @Test("a hashed key with scopes, and a key without scopes, which grants every scope")
    func scopesAreRead() throws {
        let configuration = try Self.load(
            #"[{"name": "registrar", "sha256": "\#(Self.hash)", "scopes": ["registrations", "credentials:read"]}, {"name": "old", "key": "an-old-key-without-scopes-0123"}]"#
        )
        let registrar = configuration.apiKeys[0]
        #expect(registrar.grants(.registrations) && registrar.grants(.credentialsRead))
        #expect(!registrar.grants(.credentialsWrite) && !registrar.grants(.console) && !registrar.grants(.all))
        for scope in APIScope.allCases { #expect(configuration.apiKeys[1].grants(scope)) }
    }

    @Test("a scope list that is empty or names an unknown scope is refused, naming the field")
    func badScopesAreRefused() {
        let cases = [
            (scopes: #"[]"#, field: "apiKeys[0].scopes", advice: "leave it out"),
            (#"["registrations", "admin"]"#, "apiKeys[0].scopes[1]", "known: registrations, authentications"),
        ]
        for (scopes, field, advice) in cases {
            let error = #expect(throws: ConfigurationError.self) {
                try Self.load(#"[{"name": "k", "sha256": "\#(Self.hash)", "scopes": \#(scopes)}]"#)
            }
            #expect(error?.field == field)
            #expect(error?.message.contains(advice) == true, "\(String(describing: error))")
        }
    }

    @Test("a key in clear is warned about outside development; a hashed key, or a development server, is not")
    func clearKeysAreWarnedAbout() throws {
        let clear = #"{"name": "backend", "key": "a-key-in-the-file-0123456789"}"#
        let hashed = #"{"name": "hashed", "sha256": "\#(Self.hash)"}"#
        let production = try Self.load("[\(hashed), \(clear)]", rpId: "example.com")
        #expect(production.clearAPIKeyWarnings.count == 1)
        #expect(production.clearAPIKeyWarnings.first?.contains("apiKeys[1] ('backend')") == true)
        #expect(production.clearAPIKeyWarnings.first?.contains("passkeys api-key hash") == true)
        #expect(try Self.load("[\(clear)]").clearAPIKeyWarnings.isEmpty)

        var commandLine = production
        commandLine.apiKeys = [
            .init(name: ServerConfiguration.APIKey.commandLineName, key: "from-the-environment-0123456789")
        ]
        #expect(commandLine.clearAPIKeyWarnings.isEmpty)
    }

    @Test("the entry `hashing` makes holds the key's hash, never the key, and reads back as a configuration")
    func hashedEntryRoundTrips() throws {
        let secret = ServerConfiguration.APIKey.newSecret()
        #expect(secret.hasPrefix("pk_") && secret.count >= ServerConfiguration.APIKey.minimumKeyLength)
        let entry = ServerConfiguration.APIKey.hashing(secret, name: "backend", scopes: [.users, .auditRead])
        let line = entry.configurationLine
        #expect(!line.contains(secret))
        #expect(line.contains(#""scopes":["users","audit:read"]"#))
        let configuration = try Self.load("[\(line)]")
        #expect(configuration.apiKeys == [entry])
    }
}
