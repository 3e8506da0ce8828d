import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// One user namespace: user names are unique per relying party, whether the backend API or the demo page created
/// the user, and `GET /v1/users?userName=` finds the one user of a name.
struct UserNameTests {
    @Test("the backend API refuses another user's name, and finds a user by their exact name")
    func backendNames() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            _ = try await api.createRegistration(NewRegistration(userId: "u-1", userName: "grace"))
            expectError(
                try await api.backend(
                    .post,
                    "/v1/registrations",
                    body: NewRegistration(userId: "u-2", userName: "grace")
                ),
                "USER_NAME_TAKEN",
                .conflict
            )
            // The same user again (same id) is no conflict.
            _ = try await api.createRegistration(NewRegistration(userId: "u-1", userName: "grace"))
            let found = try await api.users(query: "?userName=grace")
            #expect(found.users.map(\.userId) == ["u-1"])
            #expect(try await api.users(query: "?userName=Grace").users.isEmpty, "names compare exactly")
            #expect(try await api.users(query: "?userName=gra").users.isEmpty, "no search: the whole name")
            #expect(try await api.users(query: "?userName=%20grace%20").users.map(\.userId) == ["u-1"], "trimmed")
            #expect(try await api.users(query: "?userName=gr%04ace").users.isEmpty, "a name no one can have")
            expectError(try await api.backend(.get, "/v1/users?userName="), "INVALID_REQUEST", .badRequest)
            let long = String(repeating: "g", count: 257)
            expectError(try await api.backend(.get, "/v1/users?userName=\(long)"), "INVALID_REQUEST", .badRequest)
            expectError(try await api.backend(.get, "/v1/users?userName=grace&limit=x"), "INVALID_REQUEST", .badRequest)
        }
    }

    @Test("the demo's sign-up refuses a name the backend gave; its sign-in finds any user by name")
    func demoSharesTheNamespace() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll(NewRegistration(userId: "backend-alice", userName: "alice"), authenticator: &phone)
            let web = WebClient(api)
            try await web.get("/")
            expectError(
                try await web.post("/demo/sign-up", json: #"{"userName": "alice"}"#),
                "USER_NAME_TAKEN",
                .conflict
            )
            // The backend cannot take a name the demo gave either.
            var browser = TestAuthenticator()
            try await DemoTests.signUp("newbie", web, &browser)
            let newbie = try #require(try await api.users(query: "?userName=newbie").users.first)
            #expect(newbie.userId.hasPrefix("demo-"))
            expectError(
                try await api.backend(
                    .post,
                    "/v1/registrations",
                    body: NewRegistration(userId: "newbie", userName: "newbie")
                ),
                "USER_NAME_TAKEN",
                .conflict
            )
            // Signing in by name reaches the backend's user (who is then refused as not the demo's own account).
            try await web.submit("/sign-out")
            let refused = try await DemoTests.signIn("alice", web, &phone)
            expectError(refused, "DEMO_ACCOUNT_REQUIRED", .forbidden)
        }
    }
}
