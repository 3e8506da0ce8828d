import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// `INVALID_REQUEST` for bodies and parameters the routes cannot use, and `PAYLOAD_TOO_LARGE` past the limit.
struct RequestValidationTests {
    struct BadRequest: Sendable, CustomTestStringConvertible {
        let why: String
        let path: String
        let json: String
        var method: HTTPRequest.Method = .post
        var testDescription: String { why }
    }

    static let badBackendRequests: [BadRequest] = [
        BadRequest(why: "malformed JSON", path: "/v1/registrations", json: #"{"userId": "alice", "userName": }"#),
        BadRequest(why: "a number for userId", path: "/v1/registrations", json: #"{"userId": 5, "userName": "alice"}"#),
        BadRequest(why: "no userName", path: "/v1/registrations", json: #"{"userId": "alice"}"#),
        BadRequest(why: "null userName", path: "/v1/registrations", json: #"{"userId": "alice", "userName": null}"#),
        BadRequest(why: "an empty userId", path: "/v1/registrations", json: #"{"userId": "", "userName": "alice"}"#),
        BadRequest(
            why: "a userId with a space",
            path: "/v1/registrations",
            json: #"{"userId": "al ice", "userName": "alice"}"#
        ),
        BadRequest(
            why: "a userId with a slash",
            path: "/v1/registrations",
            json: #"{"userId": "al/ice", "userName": "alice"}"#
        ),
        BadRequest(
            why: "a non-ASCII userId",
            path: "/v1/registrations",
            json: #"{"userId": "alïce", "userName": "alice"}"#
        ),
        BadRequest(
            why: "a 129-character userId",
            path: "/v1/registrations",
            json: #"{"userId": "\#(String(repeating: "u", count: 129))", "userName": "alice"}"#
        ),
        BadRequest(why: "a blank userName", path: "/v1/registrations", json: #"{"userId": "alice", "userName": "  "}"#),
        BadRequest(
            why: "a control character in userName",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "a\u0007"}"#
        ),
        BadRequest(
            why: "a 257-character displayName",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "alice", "displayName": "\#(String(repeating: "d", count: 257))"}"#
        ),
        BadRequest(
            why: "identity verification without a provider",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "alice", "identityVerification": "required"}"#
        ),
        BadRequest(
            why: "an unknown identity verification",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "alice", "identityVerification": "maybe"}"#
        ),
        BadRequest(
            why: "an unknown finalize",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "alice", "finalize": "later"}"#
        ),
        BadRequest(
            why: "finalize as a boolean",
            path: "/v1/registrations",
            json: #"{"userId": "alice", "userName": "alice", "finalize": true}"#
        ),
        BadRequest(why: "an unknown mode", path: "/v1/authentications", json: #"{"userId": "alice", "mode": "sudo"}"#),
        BadRequest(
            why: "a transaction",
            path: "/v1/authentications",
            json: #"{"userId": "alice", "transaction": "Pay 10 EUR"}"#
        ),
        BadRequest(why: "a bad userId in a sign-in", path: "/v1/authentications", json: #"{"userId": "a b"}"#),
        BadRequest(
            why: "an action with a control character",
            path: "/v1/authentications",
            json: #"{"userId": "alice", "action": "log\nin"}"#
        ),
        BadRequest(why: "a blank action", path: "/v1/authentications", json: #"{"action": " "}"#),
        BadRequest(why: "an array body", path: "/v1/authentications", json: #"[{"userId": "alice"}]"#),
        BadRequest(why: "no resultToken", path: "/v1/authentications/auth_x/redeem", json: #"{}"#),
        BadRequest(
            why: "a number for resultToken",
            path: "/v1/authentications/auth_x/redeem",
            json: #"{"resultToken": 1}"#
        ),
        BadRequest(why: "a number for a name", path: "/v1/credentials/AAAA", json: #"{"name": 5}"#, method: .patch),
        BadRequest(why: "no name", path: "/v1/credentials/AAAA", json: #"{"label": "x"}"#, method: .patch),
    ]

    @Test(arguments: badBackendRequests)
    func badBackendRequestsAreInvalid(_ bad: BadRequest) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            expectError(
                try await api.backend(bad.method, bad.path, json: bad.json),
                "INVALID_REQUEST",
                .badRequest,
                retryable: false
            )
        }
    }

    @Test(arguments: [
        "?limit=0", "?limit=501", "?limit=ten", "?limit=-1", "?after=-1", "?after=abc", "?after=1.5", "?userId=a%20b",
        "?userId=\(String(repeating: "u", count: 129))", "?order=", "?order=Newest", "?order=latest",
        "?order=newest&before=-1", "?order=newest&before=abc", "?order=newest&before=",
        "?order=newest&before=99999999999999999999", "?order=newest&after=-1", "?order=newest&limit=0",
        "?order=newest&userId=a%20b", "?before=x", "?order=oldest&after=1&before=-1",
    ])
    func badAuditQueriesAreInvalid(_ query: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            expectError(try await api.backend(.get, "/v1/audit-events\(query)"), "INVALID_REQUEST", .badRequest)
        }
    }

    /// Completion bodies whose WebAuthn JSON cannot be decoded.
    static let badCompletions: [(why: String, json: String)] = [
        ("no credential", #"{}"#),
        ("a string credential", #"{"credential": "x"}"#),
        (
            "rawId not base64url",
            #"{"credential": {"id": "x", "rawId": "!!!", "type": "public-key", "clientExtensionResults": {}, "response": {"clientDataJSON": "e30", "attestationObject": "oA", "authenticatorData": "AA", "signature": "AA"}}}"#
        ),
        (
            "clientDataJSON not base64url",
            #"{"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {}, "response": {"clientDataJSON": "e30=*", "attestationObject": "oA", "authenticatorData": "AA", "signature": "AA"}}}"#
        ),
        (
            "padded base64",
            #"{"credential": {"id": "AAAA", "rawId": "AA==", "type": "public-key", "clientExtensionResults": {}, "response": {"clientDataJSON": "e30", "attestationObject": "oA", "authenticatorData": "AA", "signature": "AA"}}}"#
        ),
        (
            "no response",
            #"{"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {}}}"#
        ),
        (
            "clientDataJSON not JSON",
            #"{"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {}, "response": {"clientDataJSON": "AAAA", "attestationObject": "oA", "authenticatorData": "AA", "signature": "AA"}}}"#
        ),
        (
            "clientDataJSON without a challenge",
            #"{"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {}, "response": {"clientDataJSON": "e30", "attestationObject": "oA", "authenticatorData": "AA", "signature": "AA"}}}"#
        ),
    ]

    @Test(arguments: badCompletions)
    func badCompletionsAreInvalid(_ why: String, _ json: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            _ = try await api.registrationOptions(attempt)
            let (session, _) = try await api.signInSession(userID: "alice")
            for response in [
                try await api.client(
                    .post,
                    Path.registrationComplete(attempt.registrationAttemptId),
                    token: attempt.clientToken,
                    json: json
                ),
                try await api.client(
                    .post,
                    Path.authenticationComplete(session.biometricPasskeySessionId),
                    token: session.clientToken,
                    json: json
                ),
            ] {
                expectError(response, "INVALID_REQUEST", .badRequest)
            }
            // Nothing was consumed: the ceremonies still complete.
            #expect(
                try await api.completeSignIn(
                    session,
                    api.assertion(try await api.authenticationOptions(session), authenticator: &phone)
                ).status == .ok
            )
        }
    }

    @Test func aBodyOverTheLimitIsTooLarge() async throws {
        let server = try TestServer { $0.limits.maxRequestBodyBytes = 2048 }
        try await server.withAPI { api in
            let padding = String(repeating: "x", count: 2048)
            let large = #"{"userId": "alice", "userName": "alice", "displayName": "\#(padding)"}"#
            expectError(
                try await api.backend(.post, "/v1/registrations", json: large),
                "PAYLOAD_TOO_LARGE",
                .contentTooLarge,
                retryable: false
            )
            let session = try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "alice"))
            let attempt = try session.expect(.created, RegistrationAttempt.self)
            _ = try await api.registrationOptions(attempt)
            let hugeCompletion = #"{"credential": {"id": "\#(padding)"}}"#
            expectError(
                try await api.client(
                    .post,
                    Path.registrationComplete(attempt.registrationAttemptId),
                    token: attempt.clientToken,
                    json: hugeCompletion
                ),
                "PAYLOAD_TOO_LARGE",
                .contentTooLarge
            )
            // Just under the limit is fine.
            let fits = #"{"userId": "bob", "userName": "bob", "displayName": "\#(String(repeating: "y", count: 200))"}"#
            #expect(try await api.backend(.post, "/v1/registrations", json: fits).status == .created)
        }
    }
}
