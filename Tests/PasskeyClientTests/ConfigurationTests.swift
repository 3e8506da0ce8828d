import Foundation
import PasskeyClient
import Testing

@Suite("PasskeyClientConfiguration")
struct ConfigurationTests {
    static let server = URL(string: "https://passkeys.example.com")!

    @Test("a valid configuration keeps its values and defaults the origin to https://<rpDomain>")
    func valid() throws {
        let configuration = try PasskeyClientConfiguration(
            rpDomain: "example.com",
            serverBaseURL: Self.server,
            storage: "com.example.app"
        )
        #expect(configuration.rpDomain == "example.com")
        #expect(configuration.origin == "https://example.com")
        #expect(configuration.storage == "com.example.app")
    }

    @Test(
        "against a development server on this machine the origin defaults to that server's own",
        arguments: [
            ("localhost", "http://localhost:8080", "http://localhost:8080"),
            ("localhost", "http://127.0.0.1:9000", "http://localhost:9000"),
            ("localhost", "https://localhost:8443", "https://localhost"),
            ("example.com", "http://localhost:8080", "https://example.com"),
        ]
    )
    func developmentServerOrigin(rpDomain: String, server: String, origin: String) throws {
        let configuration = try PasskeyClientConfiguration(
            rpDomain: rpDomain,
            serverBaseURL: URL(string: server)!,
            storage: "com.example.app"
        )
        #expect(configuration.origin == origin)
    }

    static let invalidDomains: [(String, String)] = [
        ("", "is empty"), ("https://example.com", "without scheme"), ("example.com:443", "without scheme, port"),
        ("example.com/login", "without scheme, port or path"), ("Example.com", "lower case"),
        ("exa mple.com", "may hold only"),
        ("example..com", "empty label"), ("-example.com", "starts or ends with '-'"), ("192.168.0.1", "IP address"),
        (String(repeating: "a", count: 64) + ".com", "longer than 63"),
        (String(repeating: "a.", count: 127) + "com", "longer than 253"),
        ("exämple.com", "punycode"),
    ]

    @Test("rpDomain must be a host name", arguments: invalidDomains)
    func invalidDomain(domain: String, problem: String) {
        #expect {
            try PasskeyClientConfiguration(rpDomain: domain, serverBaseURL: Self.server, storage: "app")
        } throws: { error in
            let error = error as? PasskeyError
            return error?.code == .invalidConfiguration && error?.message.contains("rpDomain") == true
                && error?.message.contains(problem) == true
        }
    }

    @Test(
        "localhost and subdomains are host names",
        arguments: ["localhost", "login.example.com", "a-b.example", "xn--exmple-cua.com"]
    )
    func validDomain(domain: String) throws {
        _ = try PasskeyClientConfiguration(rpDomain: domain, serverBaseURL: Self.server, storage: "app")
    }

    static let invalidServers: [(String, String)] = [
        ("http://passkeys.example.com", "must use https"), ("ftp://passkeys.example.com", "must use https"),
        ("https://user:secret@passkeys.example.com", "user name or password"),
        ("https://passkeys.example.com?x=1", "query or fragment"),
        ("https://passkeys.example.com#top", "query or fragment"), ("passkeys.example.com", "not an absolute URL"),
        ("http://10.0.0.1:8080", "must use https"),
    ]

    @Test("serverBaseURL must be https except for localhost and 127.0.0.1", arguments: invalidServers)
    func invalidServer(url: String, problem: String) throws {
        let server = try #require(URL(string: url))
        #expect {
            try PasskeyClientConfiguration(rpDomain: "example.com", serverBaseURL: server, storage: "app")
        } throws: { error in
            let error = error as? PasskeyError
            return error?.code == .invalidConfiguration && error?.message.contains("serverBaseURL") == true
                && error?.message.contains(problem) == true
        }
    }

    @Test(
        "http is accepted for local development servers",
        arguments: [
            "http://localhost:8080", "http://127.0.0.1:8080", "https://passkeys.example.com/base/path",
            "http://LOCALHOST",
        ]
    )
    func localServer(url: String) throws {
        _ = try PasskeyClientConfiguration(
            rpDomain: "localhost",
            serverBaseURL: try #require(URL(string: url)),
            storage: "app"
        )
    }

    @Test(
        "the storage namespace is 1–64 of A–Z a–z 0–9 . _ -",
        arguments: [
            "", String(repeating: "a", count: 65), "com.example/app", "com example", "app:group", "ünicode", ".", "..",
        ]
    )
    func invalidNamespace(namespace: String) {
        #expect {
            try PasskeyClientConfiguration(rpDomain: "example.com", serverBaseURL: Self.server, storage: namespace)
        } throws: { error in
            let error = error as? PasskeyError
            return error?.code == .invalidConfiguration && error?.message.contains("storage") == true
        }
    }

    @Test(
        "valid namespaces",
        arguments: ["a", String(repeating: "a", count: 64), "group.com.example.app", "ABC_def-1.2"]
    )
    func validNamespace(namespace: String) throws {
        _ = try PasskeyClientConfiguration(rpDomain: "example.com", serverBaseURL: Self.server, storage: namespace)
    }

    @Test("the origin must be https (or http on localhost) or an Android app origin")
    func origin() throws {
        _ = try PasskeyClientConfiguration(
            rpDomain: "example.com",
            serverBaseURL: Self.server,
            storage: "app",
            origin: "android:apk-key-hash:q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4k"
        )
        _ = try PasskeyClientConfiguration(
            rpDomain: "localhost",
            serverBaseURL: Self.server,
            storage: "app",
            origin: "http://localhost:8080"
        )
        for origin in ["http://example.com", "https://example.com/path", "example.com"] {
            #expect(throws: PasskeyError(.invalidConfiguration, "")) {
                try PasskeyClientConfiguration(
                    rpDomain: "example.com",
                    serverBaseURL: Self.server,
                    storage: "app",
                    origin: origin
                )
            }
        }
    }

    @Test("the request timeout is more than 0 and at most 600 seconds")
    func timeout() {
        for timeout in [Duration.zero, .seconds(601)] {
            #expect(throws: PasskeyError(.invalidConfiguration, "")) {
                try PasskeyClientConfiguration(
                    rpDomain: "example.com",
                    serverBaseURL: Self.server,
                    storage: "app",
                    requestTimeout: timeout
                )
            }
        }
    }

    @Test("keychainAccessGroup reaches the keychain item; storage names its account")
    func keychainAccessGroup() throws {
        let shared = try PasskeyClientConfiguration(
            rpDomain: "example.com",
            serverBaseURL: Self.server,
            storage: "com.example.app",
            keychainAccessGroup: "ABCDE12345.com.example.shared"
        )
        #expect(
            shared.keychainItem
                == KeychainItem(
                    service: "swift-passkeys.key-store",
                    account: "com.example.app",
                    accessGroup: "ABCDE12345.com.example.shared"
                )
        )
        let appGroup = try PasskeyClientConfiguration(
            rpDomain: "example.com",
            serverBaseURL: Self.server,
            storage: "com.example.app",
            keychainAccessGroup: "group.com.example.shared"
        )
        #expect(appGroup.keychainItem.accessGroup == "group.com.example.shared")
        let own = try PasskeyClientConfiguration(rpDomain: "example.com", serverBaseURL: Self.server, storage: "app")
        #expect(own.keychainItem.accessGroup == nil)
        #expect(own.debugLogging == false)
    }

    @Test(
        "a keychainAccessGroup that is not one is INVALID_CONFIGURATION naming the field",
        arguments: ["", "shared", ".com.example", "TEAM..x", "TEAM.com example", "TEAM.com/x"]
    )
    func invalidKeychainAccessGroup(group: String) {
        #expect {
            _ = try PasskeyClientConfiguration(
                rpDomain: "example.com",
                serverBaseURL: Self.server,
                storage: "com.example.app",
                keychainAccessGroup: group
            )
        } throws: { error in
            let error = error as? PasskeyError
            return error?.code == .invalidConfiguration && error?.message.contains("keychainAccessGroup") == true
        }
    }
}
