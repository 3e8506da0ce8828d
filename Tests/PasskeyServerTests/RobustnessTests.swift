import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Hostile bodies to every POST and PATCH route: never a 500, always JSON, and an error body for every route
/// that reads a body.
struct RobustnessTests {
    struct HostileInput: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        var contentType: String = "application/json"
        /// Routes for which this body is a valid request (every member of a sign-in is optional).
        var validFor: Set<String> = []
        var testDescription: String { name }

        init(_ name: String, _ text: String, contentType: String = "application/json", validFor: Set<String> = []) {
            self.name = name
            self.body = Array(text.utf8)
            self.contentType = contentType
            self.validFor = validFor
        }

        init(_ name: String, bytes: [UInt8]) {
            self.name = name
            self.body = bytes
        }
    }

    static let megabyte = String(repeating: "A", count: 1024 * 1024)
    static let members = [
        "userId", "userName", "displayName", "credentialName", "finalize", "mode", "action", "resultToken", "name",
        "credential",
    ]

    static let inputs: [HostileInput] = [
        HostileInput("an empty body", ""),
        HostileInput("white space", " \n\t "),
        HostileInput("null", "null"),
        HostileInput("true", "true"),
        HostileInput("a number", "42"),
        HostileInput("a string", #""alice""#),
        HostileInput("an empty array", "[]"),
        HostileInput(
            "an array of objects",
            #"[{"userId": "alice", "userName": "alice", "name": "x", "resultToken": "x"}]"#
        ),
        HostileInput("an empty object", "{}", validFor: ["/v1/authentications"]),
        HostileInput(
            "null members",
            "{" + members.map { "\"\($0)\": null" }.joined(separator: ", ") + "}",
            validFor: ["/v1/authentications"]
        ),
        HostileInput("huge numbers", "{" + members.map { "\"\($0)\": 1e999999" }.joined(separator: ", ") + "}"),
        HostileInput(
            "huge integers",
            "{" + members.map { "\"\($0)\": \(String(repeating: "9", count: 400))" }.joined(separator: ", ") + "}"
        ),
        HostileInput(
            "negative zero and exponents",
            "{" + members.map { "\"\($0)\": -0.0e-999" }.joined(separator: ", ") + "}"
        ),
        HostileInput("arrays for strings", "{" + members.map { "\"\($0)\": [\"a\"]" }.joined(separator: ", ") + "}"),
        HostileInput(
            "objects for strings",
            "{" + members.filter { $0 != "credential" }.map { "\"\($0)\": {}" }.joined(separator: ", ") + "}"
        ),
        HostileInput(
            "deeply nested arrays",
            String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        ),
        HostileInput(
            "deeply nested objects",
            String(repeating: #"{"credential":"#, count: 4_000) + "1" + String(repeating: "}", count: 4_000)
        ),
        HostileInput("an unterminated nesting", String(repeating: "[", count: 60_000)),
        HostileInput(
            "a 1 MB string",
            #"{"userId": "\#(megabyte)", "userName": "\#(megabyte)", "name": "\#(megabyte)", "resultToken": "\#(megabyte)"}"#
        ),
        HostileInput("a 1 MB body of white space", String(repeating: " ", count: 1024 * 1024)),
        HostileInput(
            "invalid UTF-8",
            bytes: Array("{".utf8)
                + members.map { Array("\"\($0)\": \"".utf8) + [0xFF, 0xFE, 0xC3, 0x28] + Array("\"".utf8) }
                .joined(separator: Array(", ".utf8)) + Array("}".utf8)
        ),
        HostileInput(
            "an overlong UTF-8 encoding",
            bytes: Array(#"{"userId": ""#.utf8) + [0xC0, 0xAF] + Array(#"", "userName": "a"}"#.utf8)
        ),
        HostileInput("a lone surrogate", #"{"userId": "\ud800", "userName": "\udfff", "name": 5}"#),
        HostileInput(
            "a NUL byte",
            bytes: Array(#"{"userId": "a"#.utf8) + [0x00] + Array(#"b", "userName": "a"}"#.utf8)
        ),
        HostileInput("truncated JSON", #"{"userId": "alice", "userName": "al"#),
        HostileInput(
            "a trailing comma",
            #"{"userId": "alice",}"#,
            validFor: ["/v1/authentications", "/v1/recoveries"]
        ),
        HostileInput("trailing garbage", #"{"resultToken": 1} {"#),
        HostileInput("single quotes", #"{'userId': 'alice'}"#),
        HostileInput("a BOM and comments", "\u{FEFF}{/* hi */}"),
        HostileInput(
            "a form",
            "userId=alice&userName=alice&name=x&resultToken=x",
            contentType: "application/x-www-form-urlencoded"
        ),
        HostileInput("XML", "<registration><userId>alice</userId></registration>", contentType: "application/xml"),
        HostileInput(
            "multipart",
            "--b\r\nContent-Disposition: form-data; name=\"userId\"\r\n\r\nalice\r\n--b--",
            contentType: "multipart/form-data; boundary=b"
        ),
        HostileInput("binary", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
    ]

    /// Creates a user with a passkey, a registration attempt and a sign-in session with options issued, and
    /// returns every POST and PATCH route with its credentials; `readsBody` marks the routes that decode a body.
    static func routes(
        _ api: API
    ) async throws -> [(method: HTTPRequest.Method, path: String, bearer: String, readsBody: Bool)] {
        var phone = TestAuthenticator()
        let credential = try await api.enroll("alice", authenticator: &phone)
        let attempt = try await api.createRegistration(NewRegistration(userId: "alice", finalize: "explicit"))
        _ = try await api.registrationOptions(attempt)
        let (session, _) = try await api.signInSession(userID: "alice")
        let registrationID = attempt.registrationAttemptId
        let sessionID = session.biometricPasskeySessionId
        let key = TestServer.apiKey
        let verified = try await IdentityVerifiedEnrollmentTests.createVerifiedRegistration(api, userID: "alice")
        let stepUp = try await api.backend(
            .post,
            "/v1/authentications",
            json: #"{"userId": "alice", "mode": "stepUp", "identityVerification": "required"}"#
        ).decode(AuthenticationSession.self)
        let (handedOff, _) = try await api.signInSession(userID: nil)
        let toHandOff = try await api.backend(.post, "/v1/authentications", json: "{}").decode(
            AuthenticationSession.self
        )
        let handoff = try await api.handoff(toHandOff).decode(Handoff.self)
        let resumed = try await api.resume(handoff.handoffToken).decode(ResumedHandoff.self)
        let crossPlatform = "/v1/client/cross-platform/\(resumed.crossPlatformSessionId)"
        let recovery = try await api.startRecovery(userID: "alice").expect(.created, RecoveryStart.self)
        let recoveryID = recovery.recoveryAttemptId
        return [
            (.post, "/v1/registrations", key, true),
            (.post, "/v1/registrations/\(registrationID)/finalize", key, false),
            (.post, "/v1/registrations/\(registrationID)/abort", key, false),
            (.post, "/v1/authentications", key, true),
            (.post, Path.redeem(sessionID), key, true),
            (.patch, Path.credential(credential.credentialId), key, true),
            (.post, Path.registrationOptions(registrationID), attempt.clientToken, false),
            (.post, Path.registrationComplete(registrationID), attempt.clientToken, true),
            (.post, Path.authenticationOptions(sessionID), session.clientToken, false),
            (.post, Path.authenticationComplete(sessionID), session.clientToken, true),
            (.post, "/v1/identity-verification/runs/\(verified.1)/decision", key, true),
            // Without its signature headers: refused before the body is decoded.
            (.post, "/v1/identity-verification/webhook", key, false),
            (
                .post, "/biometric-passkey/mobile/step-up/\(stepUp.biometricPasskeySessionId)/idv/start",
                stepUp.clientToken, false
            ),
            (.post, "/v1/authentications/\(handedOff.biometricPasskeySessionId)/handoff", key, false),
            (.post, "/v1/client/cross-platform/preview", "", true),
            (.post, "/v1/client/cross-platform/resume", "", true),
            (.post, "\(crossPlatform)/confirm", resumed.clientToken, true),
            (.post, "\(crossPlatform)/reject", resumed.clientToken, false),
            (.post, "\(crossPlatform)/cancel", handoff.pollToken, false),
            (
                .post, "/biometric-passkey/mobile/cross-platform/\(resumed.crossPlatformSessionId)/idv/start",
                resumed.clientToken, false
            ),
            (.post, "/v1/recoveries", key, true),
            (.post, Recovery.complete(recoveryID), key, true),
            (.post, Recovery.registration(recoveryID), key, true),
            (.post, Recovery.identityVerification(recoveryID), recovery.recoveryToken, false),
            (.post, Recovery.attempt(recoveryID) + "/finalize", key, false),
            (.post, Recovery.attempt(recoveryID) + "/cancel", key, false),
            // The refresh token in the body is the credential.
            (.post, "/v1/sessions/refresh", "", true),
            (.post, "/v1/sessions/revoke", "", true),
            // Last: it ends the attempt the routes above use.
            (.post, "/v1/registrations/\(registrationID)/cancel", key, false),
        ]
    }

    @Test(arguments: inputs)
    func hostileBodiesNeverBreakTheServer(_ input: HostileInput) async throws {
        let server = try TestServer(configure: IdentityVerifiedEnrollmentTests.simulated)
        try await server.withAPI { api in
            let routes = try await Self.routes(api)
            #expect(
                routes.count
                    == RoutingTests.coveredRoutes.filter { $0.hasPrefix("POST") || $0.hasPrefix("PATCH") }.count
            )
            for route in routes {
                let response = try await api.send(
                    route.method,
                    route.path,
                    bearer: route.bearer,
                    body: input.body,
                    contentType: input.contentType
                )
                #expect(response.status.code < 500, "\(route.method) \(route.path): \(response)")
                #expect(response.headers[.contentType] == "application/json", "\(route.path)")
                #expect((try? response.json()) != nil, "\(route.path): not JSON: \(response.text.prefix(200))")
                if input.validFor.contains(route.path) {
                    #expect(response.status.code < 300, "\(route.path): \(response)")
                } else if route.readsBody {
                    #expect(
                        ["INVALID_REQUEST", "PAYLOAD_TOO_LARGE"].contains(errorCode(response)),
                        "\(route.path): \(response.text.prefix(300))"
                    )
                    expectError(response, errorCode(response) ?? "INVALID_REQUEST", response.status)
                } else if response.status.code >= 400 {
                    expectError(response, errorCode(response) ?? "?", response.status)
                }
            }
            // Nothing was changed by any of it.
            #expect(try await api.credentials(of: "alice").count == 1)
        }
    }
}
