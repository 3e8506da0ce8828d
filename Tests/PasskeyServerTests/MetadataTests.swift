import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn
import X509

/// `policy.metadata`: the FIDO Metadata Service BLOB is read and verified when the server starts, with errors that
/// name the field (entries with problems of their own are logged, not fatal), and then refuses compromised and
/// unusable authenticator models at registration.
struct MetadataTests {
    /// A metadata service's root and a BLOB listing `TestAuthenticator`'s AAGUID under `authority`, as files.
    struct Setup {
        let folder: URL
        let authority: TestCertificateAuthority
        let service: TestMetadataService

        var blobPath: String { folder.appendingPathComponent("blob.jwt").path }
        var rootPath: String { folder.appendingPathComponent("root.pem").path }
        var settings: ServerConfiguration.Policy.Metadata {
            .init(blob: blobPath, rootCertificates: [rootPath])
        }

        init(statuses: [AuthenticatorStatus] = [.fidoCertified], nextUpdate: String = "2030-01-01") throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("passkey-mds-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            authority = try TestCertificateAuthority()
            service = try TestMetadataService()
            try Data(service.root.pemString.utf8).write(to: URL(fileURLWithPath: rootPath))
            try writeBLOB(statuses: statuses, nextUpdate: nextUpdate)
        }

        /// Writes a BLOB with the entry of `TestAuthenticator`'s AAGUID, then `otherEntries`.
        func writeBLOB(
            statuses: [AuthenticatorStatus] = [.fidoCertified],
            nextUpdate: String = "2030-01-01",
            otherEntries: [[String: Any]] = []
        ) throws {
            let entry = try TestMetadataService.entry(
                aaguid: [UInt8](repeating: 0xAA, count: 16),
                description: "Test Key by swift-passkeys",
                roots: [authority.root],
                statuses: statuses
            )
            // With a trailing line break, as an editor may save it.
            let blob = try service.blob(entries: [entry] + otherEntries, nextUpdate: nextUpdate) + [0x0A]
            try Data(blob).write(to: URL(fileURLWithPath: blobPath))
        }

        /// A test server whose configuration names these files, with the metadata loaded at the server's time.
        func server(
            _ configure: (inout ServerConfiguration.Policy.Metadata) -> Void = { _ in }
        ) async throws
            -> TestServer
        {
            var settings = self.settings
            configure(&settings)
            var configuration = ServerConfiguration()
            configuration.policy.metadata = settings
            configuration.policy.attestation = .direct
            let metadata = try await configuration.loadMetadata(at: TestClock().now)
            return try TestServer(metadata: metadata) {
                $0.policy.metadata = settings
                $0.policy.attestation = .direct
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("policy.metadata is read from the file; requireEntry and allowStale default to off; unknown members fail")
    func configurationFile() throws {
        let json = #"{"policy":{"metadata":{"blob":"mds/blob.jwt","rootCertificates":["mds/root.pem"]}}}"#
        let configuration = try ServerConfiguration(jsonData: Data(json.utf8))
        #expect(configuration.policy.metadata == .init(blob: "mds/blob.jwt", rootCertificates: ["mds/root.pem"]))
        #expect(ServerConfiguration().policy.metadata == nil)
        let full =
            #"{"policy":{"metadata":{"blob":"b","rootCertificates":["r"],"requireEntry":true,"allowStale":true}}}"#
        let strict = try ServerConfiguration(jsonData: Data(full.utf8)).policy.metadata
        #expect(strict?.requireEntry == true && strict?.allowStale == true)

        let misspelt = #"{"policy":{"metadata":{"blob":"b","rootCertificates":["r"],"requireEntries":true}}}"#
        let unknown = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(jsonData: Data(misspelt.utf8))
        }
        #expect(unknown?.field == "policy.metadata.requireEntries")
        let missing = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(jsonData: Data(#"{"policy":{"metadata":{"blob":"b"}}}"#.utf8))
        }
        #expect(missing?.field == "policy.metadata.rootCertificates")

        var empty = ServerConfiguration()
        empty.policy.metadata = .init(blob: "", rootCertificates: ["r"])
        let noBLOB = #expect(throws: ConfigurationError.self) { try empty.validate() }
        #expect(noBLOB?.field == "policy.metadata.blob")
        empty.policy.metadata = .init(blob: "b", rootCertificates: [])
        let noRoot = #expect(throws: ConfigurationError.self) { try empty.validate() }
        #expect(noRoot?.field == "policy.metadata.rootCertificates")
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        let name: String
        let field: String
        let mentions: String
        let spoil: @Sendable (Setup) throws -> Void
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "no BLOB file", field: "policy.metadata.blob", mentions: "cannot be read") {
            try FileManager.default.removeItem(atPath: $0.blobPath)
        },
        BadFile(name: "a BLOB that is not a JWS", field: "policy.metadata.blob", mentions: "compact JWS") {
            try Data("<html>Service unavailable</html>".utf8).write(to: URL(fileURLWithPath: $0.blobPath))
        },
        BadFile(name: "a BLOB signed under another root", field: "policy.metadata.blob", mentions: "chain") {
            let other = try TestMetadataService()
            try Data(try other.blob(entries: [])).write(to: URL(fileURLWithPath: $0.blobPath))
        },
        BadFile(name: "a stale BLOB", field: "policy.metadata.blob", mentions: "allowStale") {
            try $0.writeBLOB(nextUpdate: "2025-12-01")
        },
        BadFile(name: "no root file", field: "policy.metadata.rootCertificates[0]", mentions: "cannot be read") {
            try FileManager.default.removeItem(atPath: $0.rootPath)
        },
        BadFile(name: "a root that is not PEM", field: "policy.metadata.rootCertificates[0]", mentions: "PEM") {
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: $0.rootPath))
        },
    ]

    @Test("A bad metadata file stops the server at start, naming the field and what is wrong", arguments: badFiles)
    func badFile(_ bad: BadFile) async throws {
        let setup = try Setup()
        defer { setup.remove() }
        _ = try await setup.server()
        try bad.spoil(setup)
        let error = await #expect(throws: ConfigurationError.self) { _ = try await setup.server() }
        #expect(error?.field == bad.field)
        #expect(error?.message.contains(bad.mentions) == true, "\(String(describing: error))")
    }

    @Test("A stale BLOB loads when allowStale is set")
    func allowStale() async throws {
        let setup = try Setup(nextUpdate: "2025-12-01")
        defer { setup.remove() }
        _ = try await setup.server { $0.allowStale = true }
    }

    @Test("A configuration that names metadata needs the loaded metadata, and the reverse")
    func metadataMustBeLoaded() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let unloaded = #expect(throws: ConfigurationError.self) {
            try TestServer { $0.policy.metadata = setup.settings }
        }
        #expect(unloaded?.field == "policy.metadata")
        var configuration = ServerConfiguration()
        configuration.policy.metadata = setup.settings
        let metadata = try await configuration.loadMetadata(at: TestClock().now)
        let unnamed = #expect(throws: ConfigurationError.self) { try TestServer(metadata: metadata) }
        #expect(unnamed?.field == "policy.metadata")
    }

    /// A packed registration attested under `setup.authority`, through the client API.
    static func register(
        _ api: API,
        _ server: TestServer,
        setup: Setup,
        user: String,
        aaguid: [UInt8] = TestAuthenticator().aaguid
    ) async throws -> APIResponse {
        let attempt = try await api.createRegistration(NewRegistration(userId: user))
        let options = try await api.registrationOptions(attempt)
        var phone = TestAuthenticator()
        phone.aaguid = aaguid
        phone.userHandle = options.user.id.bytes
        let response = try phone.registrationResponse(
            challenge: options.challenge.bytes,
            origin: server.origin,
            rpID: server.rpID,
            attestation: .packedCertificate(setup.authority)
        )
        return try await api.completeRegistration(attempt, response)
    }

    @Test("A certified model registers as trusted, named after its metadata description")
    func certifiedModel() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try await setup.server { $0.requireEntry = true }
        try await server.withAPI { api in
            let credential = try await Self.register(api, server, setup: setup, user: "alice")
                .expect(.created, CredentialView.self)
            #expect(credential.attestationTrusted)
            #expect(credential.name == "Test Key by swift-passkeys")
            #expect(credential.authenticatorName == "Test Key by swift-passkeys")
        }
        #expect(!server.logs.all.contains { $0.contains("set aside") })
    }

    @Test(
        "A BLOB with a malformed entry: the server starts, logs the entry, refuses that model and registers the others"
    )
    func setAsideEntry() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let other = [UInt8](repeating: 0xBB, count: 16)
        var broken = try TestMetadataService.entry(aaguid: other, roots: [setup.authority.root])
        broken["timeOfLastStatusChange"] = "soon"
        try setup.writeBLOB(otherEntries: [broken])
        let server = try await setup.server { $0.requireEntry = true }

        let logs = server.logs.all
        #expect(logs.filter { $0.hasPrefix("warning FIDO metadata: 1 entry of the BLOB is set aside") }.count == 1)
        let lines = logs.filter { $0.hasPrefix("notice FIDO metadata entry set aside") }
        #expect(lines.count == 1)
        for field in [
            "index=1", "aaguid=bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb",
            "reason=entries[1].timeOfLastStatusChange is not a date",
        ] {
            #expect(lines.first?.contains(field) == true, "\(lines)")
        }
        try await server.withAPI { api in
            let refused = try await Self.register(api, server, setup: setup, user: "alice", aaguid: other)
            expectError(refused, "AUTHENTICATOR_NOT_ALLOWED", .badRequest, retryable: false)
            #expect(try refused.json()["error"]?["message"]?.string?.contains("has no usable entry for it") == true)
            let credential = try await Self.register(api, server, setup: setup, user: "alice")
                .expect(.created, CredentialView.self)
            #expect(credential.attestationTrusted)
        }
    }

    @Test("A model the metadata reports REVOKED is refused with AUTHENTICATOR_NOT_ALLOWED, and audited")
    func revokedModel() async throws {
        let setup = try Setup(statuses: [.fidoCertified, .revoked])
        defer { setup.remove() }
        let server = try await setup.server()
        try await server.withAPI { api in
            expectError(
                try await Self.register(api, server, setup: setup, user: "alice"),
                "AUTHENTICATOR_NOT_ALLOWED",
                .badRequest,
                retryable: false
            )
            #expect(try await api.credentials(of: "alice").isEmpty)
            // An unattested passkey (whose AAGUID proves nothing) still registers.
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
        }
    }

    @Test("A BLOB that turns stale while the server runs pauses attested registrations with SERVICE_UNAVAILABLE")
    func staleWhileRunning() async throws {
        let setup = try Setup(nextUpdate: "2027-01-24")
        defer { setup.remove() }
        let server = try await setup.server()
        server.clock.advance(by: 15 * 86_400)
        try await server.withAPI { api in
            expectError(
                try await Self.register(api, server, setup: setup, user: "alice"),
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable,
                retryable: true
            )
        }
        #expect(server.logs.all.contains { $0.hasPrefix("error FIDO metadata is stale") })
    }
}
