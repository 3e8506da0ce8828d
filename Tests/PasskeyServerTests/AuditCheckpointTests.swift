import Foundation
import Hummingbird
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyServer

/// The server's signed checkpoints of the audit log's hash chain, and the key that signs them.
struct AuditCheckpointTests {
    /// A fresh folder for key files, removed after `body`.
    func withFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audit-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.path)
    }

    @Test("a round signs the chain's head with the service's key, once; the log verifies against that key")
    func round() async throws {
        let server = try TestServer()
        let checkpoints = AuditCheckpoints(service: server.service)
        #expect(await checkpoints.round() == nil, "an empty log has nothing to sign")
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
        }
        // The application's own checkpoint task signed the head when it stopped gracefully, at the end of withAPI.
        let store = server.service.context.store
        let head = try #require(try await store.auditChainHead())
        #expect(await checkpoints.round() == nil, "nothing was appended since the application stopped")
        #expect(try await store.auditCheckpoints(after: 0, limit: 10).map(\.sequence) == [head.sequence])
        let event = try await store.appendAuditEvent(AuditEvent(time: server.clock.now, actor: "system", action: "x"))
        let signed = try #require(await checkpoints.round())
        #expect(signed.sequence == event.sequence && signed.hash == event.hash)
        #expect(signed.publicKey == server.service.auditCheckpointKey.publicKey)
        #expect(await checkpoints.round() == nil, "nothing was appended since")
        let report = try await AuditChainVerification.verify(
            store,
            trustedKeys: [server.service.auditCheckpointKey.publicKey]
        )
        #expect(report.verifiedCheckpoints == 2 && report.unsignedEvents == 0 && report.startsAtGenesis)
    }

    @Test("a store error is logged, and the round ends without throwing")
    func storeFailure() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        store.fail(with: StoreError(.unavailable, "database is locked"))
        #expect(await AuditCheckpoints(service: server.service).round() == nil)
        #expect(server.logs.all.contains { $0.contains("audit checkpoint failed") && $0.contains("locked") })
    }

    @Test("the application signs checkpoints beside the HTTP server")
    func runsWithTheApplication() throws {
        let server = try TestServer()
        let application = PasskeyApplication.build(service: server.service, logger: server.logs.logger("test"))
        #expect(application.services.contains { $0 is AuditCheckpoints })
    }

    @Test("the key file is made on first use, readable by its owner only, and the same key is read back")
    func keyFile() async throws {
        try await withFolder { folder in
            var configuration = ServerConfiguration()
            configuration.audit.checkpointKeyFile = folder + "/audit.key"
            let made = try AuditCheckpointKey.load(for: configuration)
            #expect(made.file == folder + "/audit.key")
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/audit.key")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let read = try AuditCheckpointKey.load(for: configuration)
            #expect(read.publicKey == made.publicKey)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["audit.key"])
            configuration.audit.checkpointKeyFile = nil
            #expect(try AuditCheckpointKey.load(for: configuration).publicKey != made.publicKey)
        }
    }

    @Test("a key file others may read, or one that holds no key, is refused, naming the setting")
    func refusedKeyFiles() async throws {
        try await withFolder { folder in
            var configuration = ServerConfiguration()
            let open = folder + "/open.key"
            configuration.audit.checkpointKeyFile = open
            _ = try AuditCheckpointKey.load(for: configuration)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open)
            let exposed = #expect(throws: ConfigurationError.self) { try AuditCheckpointKey.load(for: configuration) }
            #expect(exposed?.field == "audit.checkpointKeyFile")
            #expect(exposed?.message.contains("chmod 600") == true)

            let garbage = folder + "/garbage.key"
            _ = FileManager.default.createFile(
                atPath: garbage,
                contents: Data("not a key\n".utf8),
                attributes: [.posixPermissions: 0o600]
            )
            configuration.audit.checkpointKeyFile = garbage
            let wrong = #expect(throws: ConfigurationError.self) { try AuditCheckpointKey.load(for: configuration) }
            #expect(wrong?.field == "audit.checkpointKeyFile")
        }
    }
}
