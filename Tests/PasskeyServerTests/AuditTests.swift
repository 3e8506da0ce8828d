import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Synchronization
import Testing
import WebAuthn

/// `GET /v1/audit-events`: an event for every state change, paging, the user filter — and no secret in the
/// audit log or in any log line.
struct AuditTests {
    /// Secrets seen by the client side of a scenario, to look for where they must not be.
    final class Secrets: Sendable {
        private let values = Mutex<[String: String]>([:])
        func add(_ kind: String, _ value: String) { values.withLock { $0["\(kind) #\($0.count)"] = value } }
        var all: [String: String] { values.withLock { $0 } }
    }

    /// Runs every flow of the server once, with successes and failures, recording the secrets it sees.
    static func runEveryFlow(_ api: API, secrets: Secrets) async throws {
        secrets.add("API key", TestServer.apiKey)
        var phone = TestAuthenticator()
        var laptop = TestAuthenticator()

        // registration.created, registration.failed, registration.completed
        let attempt = try await api.createRegistration(NewRegistration(userId: "alice", userName: "alice@example.com"))
        secrets.add("client token", attempt.clientToken)
        let options = try await api.registrationOptions(attempt)
        secrets.add("challenge", options.challenge.base64URL)
        let bad = try phone.registrationResponse(
            challenge: options.challenge.bytes,
            origin: "https://evil.example",
            rpID: api.server.rpID
        )
        expectError(try await api.completeRegistration(attempt, bad), "ORIGIN_NOT_ALLOWED", .badRequest)
        let retry = try await api.registrationOptions(attempt)
        secrets.add("challenge", retry.challenge.base64URL)
        _ = try await api.completeRegistration(attempt, try api.registrationResponse(retry, authenticator: &phone))
            .expect(.created, CredentialView.self)
        secrets.add("public key", Base64URL.encode(phone.key.coseKey))

        // registration.finalized and registration.aborted
        for (authenticator, settle) in [(laptop, "finalize"), (TestAuthenticator(), "abort")] {
            var device = authenticator
            let explicit = try await api.createRegistration(NewRegistration(userId: "alice", finalize: "explicit"))
            secrets.add("client token", explicit.clientToken)
            let explicitOptions = try await api.registrationOptions(explicit)
            secrets.add("challenge", explicitOptions.challenge.base64URL)
            let reserved = try await api.completeRegistration(
                explicit,
                try api.registrationResponse(explicitOptions, authenticator: &device)
            )
            .expect(.created, ReservedCredentialView.self)
            secrets.add("public key", Base64URL.encode(device.key.coseKey))
            let finalizeToken = try #require(reserved.finalizeToken)
            secrets.add("finalize token", finalizeToken)
            #expect(
                try await api.backend(
                    .post,
                    "/v1/registrations/\(explicit.registrationAttemptId)/\(settle)",
                    json: #"{"finalizeToken":"\#(finalizeToken)"}"#
                ).status == .ok
            )
            if settle == "finalize" { laptop = device }
        }

        // authentication.created, authentication.failed, authentication.completed, authentication.redeemed
        let session = try await api.startSignIn(userID: "alice", action: "payment")
        secrets.add("client token", session.clientToken)
        let signInOptions = try await api.authenticationOptions(session)
        secrets.add("challenge", signInOptions.challenge.base64URL)
        var forged = api.assertion(signInOptions, authenticator: &phone)
        forged.response.signature.bytes[8] ^= 0xFF
        expectError(try await api.completeSignIn(session, forged), "ASSERTION_INVALID", .badRequest)
        let again = try await api.authenticationOptions(session)
        secrets.add("challenge", again.challenge.base64URL)
        let completion = try await api.completeSignIn(session, api.assertion(again, authenticator: &phone)).expect(
            .ok,
            SignInCompletion.self
        )
        secrets.add("result token", completion.resultToken)
        _ = try await api.redeem(session, completion.resultToken).expect(.ok, SignInResult.self)

        // credential.clone_suspected
        var clone = phone
        clone.signCount = 0
        let (cloneSession, cloneOptions) = try await api.signInSession(userID: nil)
        secrets.add("client token", cloneSession.clientToken)
        secrets.add("challenge", cloneOptions.challenge.base64URL)
        expectError(
            try await api.completeSignIn(cloneSession, api.assertion(cloneOptions, authenticator: &clone)),
            "CREDENTIAL_CLONE_SUSPECTED",
            .badRequest
        )

        // credential.renamed, credential.revoked, user.deleted
        _ = try await api.backend(.patch, Path.credential(phone.credentialIDText), body: Rename(name: "Phone")).expect(
            .ok,
            CredentialView.self
        )
        #expect(try await api.backend(.delete, Path.credential(laptop.credentialIDText)).status == .noContent)
        var bobs = TestAuthenticator()
        try await api.enroll("bob", authenticator: &bobs)
        #expect(try await api.backend(.delete, "/v1/users/bob").status == .noContent)
    }

    @Test func everyStateChangeIsAnEventWithItsActorAndRequest() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            try await Self.runEveryFlow(api, secrets: Secrets())
            let events = try await api.auditEvents(query: "?limit=500").events
            let actions = Set(events.map(\.action))
            #expect(
                actions == [
                    "registration.created", "registration.failed", "registration.completed", "registration.finalized",
                    "registration.aborted",
                    "authentication.created", "authentication.failed", "authentication.completed",
                    "authentication.redeemed",
                    "credential.clone_suspected", "credential.renamed", "credential.revoked", "user.deleted",
                ]
            )
            #expect(events.map(\.sequence) == events.map(\.sequence).sorted())
            #expect(Set(events.map(\.sequence)).count == events.count)
            for event in events {
                #expect(event.requestId?.hasPrefix("req_") == true, "\(event.action)")
                let byClient =
                    event.action.hasSuffix(".completed") || event.action.hasSuffix(".failed")
                    || event.action == "credential.clone_suspected"
                #expect(event.actor == (byClient ? "client" : "api-key:test"), "\(event.action)")
            }
            let failed = try #require(events.first { $0.action == "registration.failed" })
            #expect(failed.details["code"] == "ORIGIN_NOT_ALLOWED")
            let renamed = try #require(events.first { $0.action == "credential.renamed" })
            #expect(renamed.details["name"] == "Phone")
            #expect(renamed.userId == "alice")
            #expect(events.first { $0.action == "user.deleted" }?.userId == "bob")
        }
    }

    /// Each event carries its chain link, as the store holds it: every event follows the one before it, the first the
    /// genesis, and a page filtered by user shows the same hashes as the whole log.
    @Test func eventsCarryTheirHashChainLinks() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            try await Self.runEveryFlow(api, secrets: Secrets())
            let events = try await api.auditEvents(query: "?limit=500").events
            let stored = try await server.store.auditEvents(after: 0, limit: 500, userID: nil)
            #expect(events.count == stored.count && events.count > 10)
            #expect(events.first?.previousHash == Base64URL.encode(AuditChain.genesis))
            for (event, record) in zip(events, stored) {
                #expect(event.hash == record.hash.map(Base64URL.encode), "\(event.sequence)")
                #expect(event.previousHash == record.previousHash.map(Base64URL.encode), "\(event.sequence)")
            }
            for (earlier, later) in zip(events, events.dropFirst()) {
                #expect(later.previousHash == earlier.hash, "\(later.sequence) follows \(earlier.sequence)")
            }
            let hashes = Dictionary(uniqueKeysWithValues: events.map { ($0.sequence, $0.hash) })
            for event in try await api.auditEvents(query: "?userId=alice").events {
                #expect(event.hash != nil && event.hash == hashes[event.sequence])
            }
        }
    }

    @Test func theRequestIDOfAnEventIsTheResponses() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let response = try await api.send(
                .post,
                "/v1/registrations",
                bearer: TestServer.apiKey,
                body: JSON.encode(NewRegistration(userId: "alice")),
                headers: [API.requestIDHeader: "integrator-trace-7"]
            )
            #expect(response.status == .created)
            let event = try #require(try await api.auditEvents().events.first)
            #expect(event.requestId == "integrator-trace-7")
            #expect(event.action == "registration.created")
            #expect(event.subject == (try response.decode(RegistrationAttempt.self)).registrationAttemptId)
            #expect(event.details == ["finalize": "automatic"])
        }
    }

    /// A failure event carries the code the client got, for registrations as for sign-ins.
    @Test func failureEventsCarryTheAPIErrorCode() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let options = try await api.registrationOptions(attempt)
            var phone = TestAuthenticator()
            let framed = try phone.registrationResponse(
                challenge: options.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID
            ) { _, clientData in
                clientData.crossOrigin = true
            }
            let refused = try await api.completeRegistration(attempt, framed)
            expectError(refused, "ORIGIN_NOT_ALLOWED", .badRequest)
            try await api.enroll("alice", authenticator: &phone)
            let (session, signInOptions) = try await api.signInSession(userID: "alice")
            let framedAssertion = phone.authenticationResponse(
                challenge: signInOptions.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID
            ) { _, clientData in
                clientData.crossOrigin = true
            }
            let signInRefused = try await api.completeSignIn(session, framedAssertion)
            expectError(signInRefused, "ORIGIN_NOT_ALLOWED", .badRequest)

            let events = try await api.auditEvents().events
            #expect(events.first { $0.action == "registration.failed" }?.details["code"] == "ORIGIN_NOT_ALLOWED")
            #expect(events.first { $0.action == "authentication.failed" }?.details["code"] == "ORIGIN_NOT_ALLOWED")
        }
    }

    /// Every page from `query` on, following `nextCursor` as the `cursor` parameter; each page holds at most 3
    /// events and its cursor is its last event's sequence number.
    static func allPages(
        _ api: API,
        _ query: String,
        cursor parameter: String
    ) async throws -> (events: [AuditPageView.Event], pages: Int) {
        var all: [AuditPageView.Event] = []
        var next = query
        var pages = 0
        while true {
            let page = try await api.auditEvents(query: next)
            pages += 1
            #expect(page.events.count <= 3)
            all += page.events
            guard let cursor = page.nextCursor else { return (all, pages) }
            #expect(cursor == page.events.last.map { String($0.sequence) })
            next = query + "&\(parameter)=\(cursor)"
        }
    }

    @Test func eventsArePagedAndFilteredByUser() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for user in ["alice", "bob", "alice", "carol", "alice", "bob", "alice"] {
                _ = try await api.createRegistration(NewRegistration(userId: user))
            }
            let (all, pages) = try await Self.allPages(api, "?limit=3", cursor: "after")
            #expect(pages == 3)
            #expect(all.count == 7)
            #expect(all.map(\.sequence) == Array(1...7))

            let alices = try await api.auditEvents(query: "?userId=alice")
            #expect(alices.events.count == 4)
            #expect(alices.events.allSatisfy { $0.userId == "alice" })
            #expect(alices.nextCursor == nil)
            let firstTwo = try await api.auditEvents(query: "?userId=alice&limit=2")
            let rest = try await api.auditEvents(
                query: "?userId=alice&limit=2&after=\(try #require(firstTwo.nextCursor))"
            )
            #expect((firstTwo.events + rest.events).map(\.sequence) == alices.events.map(\.sequence))
            #expect(rest.nextCursor == nil)
            // Exactly a page: no cursor to an empty page.
            #expect(try await api.auditEvents(query: "?limit=7").nextCursor == nil)
            #expect(try await api.auditEvents(query: "?after=7").events.isEmpty)
            #expect(try await api.auditEvents(query: "?userId=nobody").events.isEmpty)
        }
    }

    @Test func eventsArePagedNewestFirst() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for user in ["alice", "bob", "alice", "carol", "alice", "bob", "alice"] {
                _ = try await api.createRegistration(NewRegistration(userId: user))
            }
            let (all, pages) = try await Self.allPages(api, "?order=newest&limit=3", cursor: "before")
            #expect(pages == 3)
            #expect(all.map(\.sequence) == Array((1...7).reversed()))
            // The default order is unchanged, and the same as asking for it.
            let oldest = try await api.auditEvents(query: "?order=oldest")
            #expect(oldest.events.map(\.sequence) == Array(1...7))
            #expect(try await api.auditEvents().events.map(\.sequence) == Array(1...7))

            let alices = try await api.auditEvents(query: "?order=newest&userId=alice")
            #expect(alices.events.map(\.sequence) == [7, 5, 3, 1])
            #expect(alices.events.allSatisfy { $0.userId == "alice" })
            #expect(alices.nextCursor == nil)
            let firstTwo = try await api.auditEvents(query: "?order=newest&userId=alice&limit=2")
            #expect(firstTwo.nextCursor == "5")
            let rest = try await api.auditEvents(
                query: "?order=newest&userId=alice&limit=2&before=\(try #require(firstTwo.nextCursor))"
            )
            #expect((firstTwo.events + rest.events).map(\.sequence) == alices.events.map(\.sequence))
            #expect(rest.nextCursor == nil)
            // Exactly a page: no cursor to an empty page.
            #expect(try await api.auditEvents(query: "?order=newest&limit=7").nextCursor == nil)
            #expect(try await api.auditEvents(query: "?order=newest&before=1").events.isEmpty)
            #expect(try await api.auditEvents(query: "?order=newest&before=0").events.isEmpty)
            #expect(try await api.auditEvents(query: "?order=newest&before=4").events.map(\.sequence) == [3, 2, 1])
            #expect(try await api.auditEvents(query: "?order=newest&userId=nobody").events.isEmpty)
        }
    }

    /// `after` and `before` bound a window in either order; the order picks the end a page starts from, and the
    /// cursor its next page replaces (`after` oldest first, `before` newest first), keeping the other bound.
    @Test func afterAndBeforeBoundAWindowInEitherOrder() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for user in ["alice", "bob", "alice", "carol", "alice", "bob", "alice", "bob", "carol"] {
                _ = try await api.createRegistration(NewRegistration(userId: user))
            }
            let (oldest, oldestPages) = try await Self.allPages(api, "?order=oldest&before=8&limit=2", cursor: "after")
            #expect(oldest.map(\.sequence) == Array(1...7))
            #expect(oldestPages == 4)
            let first = try await api.auditEvents(query: "?order=oldest&after=2&before=7&limit=2")
            #expect(first.events.map(\.sequence) == [3, 4])
            let second = try await api.auditEvents(
                query: "?order=oldest&after=\(try #require(first.nextCursor))&before=7&limit=2"
            )
            #expect(second.events.map(\.sequence) == [5, 6])
            // The window ends at 6: no cursor to an empty page.
            #expect(second.nextCursor == nil)
            let newest = try await api.auditEvents(query: "?order=newest&after=5&before=9")
            #expect(newest.events.map(\.sequence) == [8, 7, 6])
            let (newestAll, _) = try await Self.allPages(api, "?order=newest&after=2&limit=2", cursor: "before")
            #expect(newestAll.map(\.sequence) == Array((3...9).reversed()))
            let alice = try await api.auditEvents(query: "?after=1&before=7&userId=alice")
            #expect(alice.events.map(\.sequence) == [3, 5])
            // An empty window is an empty page, not a refusal.
            for query in ["?after=5&before=6", "?after=6&before=2", "?order=newest&after=9"] {
                let page = try await api.auditEvents(query: query)
                #expect(page.events.isEmpty, "\(query)")
                #expect(page.nextCursor == nil, "\(query)")
            }
        }
    }

    @Test func noSecretReachesTheAuditLogOrTheLogs() async throws {
        let server = try TestServer()
        let secrets = Secrets()
        try await server.withAPI { api in
            try await Self.runEveryFlow(api, secrets: secrets)
            // Errors that reach the logs, with secrets in the request.
            _ = try await api.send(.get, "/v1/audit-events", bearer: "wrong-key-that-looks-secret-123456")
            let audit = try await api.backend(.get, "/v1/audit-events?limit=500")
            #expect(audit.status == .ok)
            let logs = server.logs.all
            #expect(logs.contains { $0.contains("request") }, "the server logs requests")
            for (kind, secret) in secrets.all {
                #expect(!audit.text.contains(secret), "the audit log holds a \(kind)")
                for line in logs {
                    #expect(!line.contains(secret), "a log line holds a \(kind): \(line)")
                }
            }
            #expect(!logs.contains { $0.contains("wrong-key-that-looks-secret") })
        }
    }
}
