import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// `Idempotency-Key` on the backend's POSTs: the same key and body answer the first answer again, another body is
/// refused — over the real HTTP stack, on SQLite and (when configured) PostgreSQL.
struct IdempotencyTests {
    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    static func post(_ api: API, _ path: String, json: String, key: String?) async throws -> APIResponse {
        try await api.send(
            .post,
            path,
            bearer: TestServer.apiKey,
            body: Array(json.utf8),
            headers: key.map { [keyHeader: $0] } ?? [:]
        )
    }

    @Test(arguments: RealStore.available)
    func theSameKeyAndBodyAnswerTheFirstAnswerAgain(_ kind: RealStore) async throws {
        try await RegistrationLifecycleTests.withServer(kind) { server, api in
            let body = #"{"userId": "alice", "userName": "alice@example.com"}"#
            let first = try await Self.post(api, "/v1/registrations", json: body, key: "key-1")
            #expect(first.status == .created)
            #expect(first.headers[Self.replayedHeader] == nil)
            let again = try await Self.post(api, "/v1/registrations", json: body, key: "key-1")
            #expect(again.status == .created)
            #expect(again.body == first.body, "the same answer, the same attempt and client token")
            #expect(again.headers[Self.replayedHeader] == "true")
            #expect(again.headers[.contentType] == "application/json")
            let audit = try await server.service.context.store.auditEvents(after: 0, limit: 100, userID: "alice")
            #expect(audit.filter { $0.action == "registration.created" }.count == 1, "it ran once")

            // Another body with the key is refused; a new key, or none, runs anew.
            expectError(
                try await Self.post(
                    api,
                    "/v1/registrations",
                    json: #"{"userId": "bob", "userName": "b"}"#,
                    key: "key-1"
                ),
                "IDEMPOTENT_REPLAY",
                .unprocessableContent
            )
            let other = try await Self.post(api, "/v1/registrations", json: body, key: "key-2")
            #expect(other.status == .created && other.body != first.body)
            let unkeyed = try await Self.post(api, "/v1/registrations", json: body, key: nil)
            #expect(unkeyed.status == .created && unkeyed.body != first.body)

            // A key belongs to its path: the same key elsewhere is another request.
            let signIn = try await Self.post(api, "/v1/authentications", json: "{}", key: "key-1")
            #expect(signIn.status == .created)

            // After 24 hours the key is free again.
            server.clock.advance(by: 86_401)
            let later = try await Self.post(api, "/v1/registrations", json: body, key: "key-1")
            #expect(later.status == .created && later.headers[Self.replayedHeader] == nil)
        }
    }

    @Test(arguments: RealStore.available)
    func aFinalizeIsSettledOnceAndItsAnswerReplayed(_ kind: RealStore) async throws {
        try await RegistrationLifecycleTests.withServer(kind) { _, api in
            var phone = TestAuthenticator()
            let reserved = try await ExplicitFinalizeTests.reserve(api, &phone)
            let path = ExplicitFinalizeTests.finalizePath(reserved.registrationAttemptId)
            let body = #"{"finalizeToken": "\#(reserved.finalizeToken)"}"#
            let first = try await Self.post(api, path, json: body, key: "finalize-1")
            #expect(first.status == .ok)
            let retry = try await Self.post(api, path, json: body, key: "finalize-1")
            #expect(
                retry.status == .ok && retry.body == first.body,
                "a retried finalize gets its answer, not a conflict"
            )
            #expect(retry.headers[Self.replayedHeader] == "true")
            expectError(
                try await Self.post(api, path, json: body, key: nil),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
        }
    }

    @Test(arguments: RealStore.available)
    func aRefusedRequestKeepsNothingAndABadKeyIsRefused(_ kind: RealStore) async throws {
        try await RegistrationLifecycleTests.withServer(kind) { _, api in
            let invalid = #"{"userId": "", "userName": "x"}"#
            expectError(
                try await Self.post(api, "/v1/registrations", json: invalid, key: "k"),
                "INVALID_REQUEST",
                .badRequest
            )
            // The refusal was not kept: the key is free for the same body (refused again) or another.
            expectError(
                try await Self.post(api, "/v1/registrations", json: invalid, key: "k"),
                "INVALID_REQUEST",
                .badRequest
            )
            let valid = #"{"userId": "alice", "userName": "alice@example.com"}"#
            #expect(try await Self.post(api, "/v1/registrations", json: valid, key: "k").status == .created)

            for key in ["", String(repeating: "k", count: 256), "tab\tkey", "a key", "ключ"] {
                expectError(
                    try await Self.post(api, "/v1/registrations", json: valid, key: key),
                    "INVALID_REQUEST",
                    .badRequest
                )
            }
            // Only backend POSTs: a client route ignores the header.
            let attempt = try await api.createRegistration(NewRegistration(userId: "bob"))
            for _ in 0..<2 {
                let options = try await api.send(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    bearer: attempt.clientToken,
                    headers: [Self.keyHeader: "client"]
                )
                #expect(options.status == .ok && options.headers[Self.replayedHeader] == nil)
            }
        }
    }
}
