import Crypto
import Foundation
import PasskeyClient
import PasskeyTesting
import Synchronization
import Testing

/// ``TokenSession`` against a live server: the backend redeems a sign-in with a session, the app keeps it, refreshes
/// it before it expires (saving every new pair), shares one refresh among concurrent callers, and forgets it when the
/// server says it is over.
@Suite("Token sessions in the SDK")
struct TokenSessionSDKTests {
    /// A clock the tests move.
    final class Clock: Sendable {
        private let time = Mutex(Date())
        func read() -> Date { time.withLock { $0 } }
        func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    /// A client whose authenticator holds alice's passkey.
    static func enrolled(_ server: LiveServer.Context) async throws -> PasskeyClient {
        let client = try server.client(ScriptableAuthenticator())
        let attempt = try await server.backend.createRegistration(
            userId: "alice",
            userName: "alice",
            displayName: "Alice"
        )
        _ = try await client.enroll(
            EnrollmentInput(registrationAttemptId: attempt.registrationAttemptId, clientToken: attempt.clientToken)
        )
        return client
    }

    /// Enrolls alice and signs her in; the backend redeems with a session: its tokens.
    static func signedIn(_ server: LiveServer.Context) async throws -> SessionTokens {
        let client = try await enrolled(server)
        let session = try await server.backend.createAuthentication(userId: "alice")
        let result = try await client.authenticate(
            AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
        )
        let redeemed = try await server.backend.redeemAuthentication(
            sessionId: session.biometricPasskeySessionId,
            resultToken: result.resultToken,
            issueSession: true
        )
        return try #require(redeemed.session)
    }

    @Test("the access token is refreshed before it expires, and every new pair is stored")
    func refreshesBeforeExpiry() async throws {
        try await LiveServer.run { server in
            let tokens = try await Self.signedIn(server)
            let clock = Clock()
            let storage = MemoryTokenSessionStorage()
            let session = TokenSession(
                api: PasskeyClientAPI(serverBaseURL: server.baseURL),
                storage: storage,
                now: clock.read
            )
            try await session.start(with: tokens)
            #expect(try await session.isSignedIn)
            #expect(try await session.accessToken() == tokens.accessToken)

            clock.advance(by: TimeInterval(tokens.expiresIn) - 30)
            let refreshed = try await session.accessToken()
            #expect(refreshed != tokens.accessToken)
            let stored = try #require(await storage.load())
            #expect(stored.accessToken == refreshed)
            #expect(stored.refreshToken != tokens.refreshToken)

            // The spent refresh token is refused by the server as a reuse, which ends the session.
            let api = PasskeyClientAPI(serverBaseURL: server.baseURL)
            await #expect(throws: PasskeyError.self) { try await api.refreshSession(refreshToken: tokens.refreshToken) }
            clock.advance(by: TimeInterval(tokens.expiresIn))
            let ended = await #expect(throws: PasskeyError.self) { try await session.accessToken() }
            #expect(ended?.code == .invalidOrExpiredSession)
            #expect(ended?.serverCode == "SESSION_REVOKED")
            #expect(await storage.load() == nil)
            #expect(try await !session.isSignedIn)
        }
    }

    @Test("concurrent callers share one refresh, so the server sees no reuse")
    func oneRefreshAtATime() async throws {
        try await LiveServer.run { server in
            let tokens = try await Self.signedIn(server)
            let storage = MemoryTokenSessionStorage()
            let session = TokenSession(api: PasskeyClientAPI(serverBaseURL: server.baseURL), storage: storage)
            try await session.start(with: tokens)
            let results = try await withThrowingTaskGroup(of: StoredTokenSession.self) { group in
                for _ in 0..<4 { group.addTask { try await session.refresh() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // None of them failed: without the shared refresh, two would spend one refresh token and the second would
            // be refused as a reuse (REFRESH_TOKEN_REUSED), ending the session. The stored token is live.
            #expect(results.count == 4)
            #expect(await storage.load().map { stored in results.contains(stored) } == true)
            #expect(try await session.refresh().refreshToken != tokens.refreshToken)
        }
    }

    @Test("the guide's example signs in with a token session whose access token the server issued")
    func guideExample() async throws {
        try await LiveServer.run { server in
            let session = try await signInWithTokenSession(
                client: try await Self.enrolled(server),
                backend: server.backend,
                serverBaseURL: server.baseURL,
                storage: MemoryTokenSessionStorage(),
                userId: "alice"
            )
            let token = try await session.accessToken()
            #expect(token.split(separator: ".").count == 3)
            #expect(try await session.isSignedIn)
        }
    }

    @Test("signing out revokes the session on the server and forgets it")
    func signOut() async throws {
        try await LiveServer.run { server in
            let tokens = try await Self.signedIn(server)
            let storage = MemoryTokenSessionStorage()
            let session = TokenSession(api: PasskeyClientAPI(serverBaseURL: server.baseURL), storage: storage)
            try await session.start(with: tokens)
            try await session.signOut()
            #expect(await storage.load() == nil)
            let api = PasskeyClientAPI(serverBaseURL: server.baseURL)
            let refused = await #expect(throws: PasskeyError.self) {
                try await api.refreshSession(refreshToken: tokens.refreshToken)
            }
            #expect(refused?.serverCode == "SESSION_REVOKED")
            let none = await #expect(throws: PasskeyError.self) { try await session.accessToken() }
            #expect(none?.code == .invalidOrExpiredSession)
        }
    }

    @Test("the encrypted file storage keeps a session sealed, owner-only, and refuses another key")
    func encryptedFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session").path
        let key = SymmetricKey(size: .bits256)
        let storage = EncryptedFileTokenSessionStorage(path: path, key: key)
        #expect(try await storage.load() == nil)
        let session = StoredTokenSession(
            accessToken: "eyJ.access.token",
            accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_000),
            refreshToken: "pks_secret",
            refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_800_086_400)
        )
        try await storage.save(session)
        #expect(try await storage.load() == session)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("pks_secret".utf8)) == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let other = EncryptedFileTokenSessionStorage(path: path, key: SymmetricKey(size: .bits256))
        let refused = await #expect(throws: PasskeyError.self) { try await other.load() }
        #expect(refused?.code == .keyStoreCorrupt)
        try await storage.clear()
        #expect(try await storage.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
