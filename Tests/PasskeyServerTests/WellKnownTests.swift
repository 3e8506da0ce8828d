import Foundation
import HTTPTypes
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// The association files (DESIGN §4), generated from the configuration, and the origin allowlist derived
/// from the same apps.
struct WellKnownTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static var fingerprintBytes: [UInt8] { (0..<32).map { UInt8($0 * 7 % 256) } }

    @Test("a file that cannot be serialized is an error, not a crash")
    func unserializableFile() {
        #expect(throws: APIError.unexpected) { try AssociationFiles.json(["origins": [Double.nan]]) }
        #expect(throws: APIError.unexpected) { try AssociationFiles.json(["when": Date()]) }
    }

    static func configureApps(_ configuration: inout ServerConfiguration) {
        configuration.relatedOrigins = ["https://example.org", "https://shop.example.net"]
        configuration.appleApps = [
            .init(teamId: "ABCDE12345", bundleId: "com.example.app"),
            .init(teamId: "ZYXWV98765", bundleId: "com.example.other"),
        ]
        configuration.androidApps = [.init(packageName: "com.example.android", sha256CertFingerprints: [fingerprint])]
    }

    @Test func appleAppSiteAssociationListsTheApps() async throws {
        let server = try TestServer(configure: Self.configureApps)
        try await server.withAPI { api in
            let response = try await api.send(.get, "/.well-known/apple-app-site-association")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(
                try response.json()
                    == .object([
                        "webcredentials": .object([
                            "apps": .array([
                                .string("ABCDE12345.com.example.app"), .string("ZYXWV98765.com.example.other"),
                            ])
                        ])
                    ])
            )
        }
    }

    @Test func assetLinksListTheAndroidApps() async throws {
        let server = try TestServer(configure: Self.configureApps)
        try await server.withAPI { api in
            let response = try await api.send(.get, "/.well-known/assetlinks.json")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(
                try response.json()
                    == .array([
                        .object([
                            "relation": .array([
                                .string("delegate_permission/common.handle_all_urls"),
                                .string("delegate_permission/common.get_login_creds"),
                            ]),
                            "target": .object([
                                "namespace": .string("android_app"), "package_name": .string("com.example.android"),
                                "sha256_cert_fingerprints": .array([.string(Self.fingerprint)]),
                            ]),
                        ])
                    ])
            )
        }
    }

    @Test func webauthnListsTheRelatedOrigins() async throws {
        let server = try TestServer(configure: Self.configureApps)
        try await server.withAPI { api in
            let response = try await api.send(.get, "/.well-known/webauthn")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(
                try response.json()
                    == .object([
                        "origins": .array([
                            .string("http://localhost:8080"), .string("https://example.org"),
                            .string("https://shop.example.net"),
                        ])
                    ])
            )
        }
    }

    @Test func withoutAppsTheFilesAreEmptyButValid() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let apple = try await api.send(.get, "/.well-known/apple-app-site-association").json()
            #expect(apple == .object(["webcredentials": .object(["apps": .array([])])]))
            let android = try await api.send(.get, "/.well-known/assetlinks.json").json()
            #expect(android == .array([]))
            let related = try await api.send(.get, "/.well-known/webauthn").json()
            #expect(related == .object(["origins": .array([.string("http://localhost:8080")])]))
        }
    }

    /// An Android app presents `android:apk-key-hash:<base64url SHA-256 of its signing certificate>`; an iOS app
    /// `https://<rpId>`; a related site its own origin.
    @Test(arguments: [
        "android:apk-key-hash:\(Base64URL.encode(fingerprintBytes))", "https://localhost", "https://example.org",
    ])
    func theDerivedOriginsAreAccepted(_ origin: String) async throws {
        let server = try TestServer(configure: Self.configureApps)
        #expect(server.configuration.allowedOrigins.contains(origin))
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll(NewRegistration(userId: "alice"), authenticator: &phone, origin: origin)
            let (session, options) = try await api.signInSession(userID: nil)
            #expect(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone, origin: origin))
                    .status == .ok
            )
        }
    }

    @Test(arguments: [
        "android:apk-key-hash:\(Base64URL.encode(Array(repeating: UInt8(1), count: 32)))", "https://localhost",
        "https://example.org",
        "http://localhost", "http://localhost:8081", "https://localhost:8080",
    ])
    func otherOriginsAreRefused(_ origin: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var phone = TestAuthenticator()
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &phone,
                origin: origin
            )
            expectError(try await api.completeRegistration(attempt, response), "ORIGIN_NOT_ALLOWED", .badRequest)
        }
    }
}
