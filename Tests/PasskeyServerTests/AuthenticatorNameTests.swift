import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing

/// Passkeys are named after their provider from the names shipped with the server; a withheld model says so.
struct AuthenticatorNameTests {
    static func aaguid(_ text: String) -> [UInt8] {
        let hex = text.replacingOccurrences(of: "-", with: "")
        return stride(from: 0, to: hex.count, by: 2).map {
            let start = hex.index(hex.startIndex, offsetBy: $0)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test(
        "providers from the shipped list name their passkeys",
        arguments: [
            ("50726f74-6f6e-5061-7373-50726f746f6e", "Proton Pass"),
            ("531126d6-e717-415c-9320-3d9aa6981239", "Dashlane"),
            ("b5397666-4885-aa6b-cebf-e52262a439a2", "Chromium Browser"),
            ("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", "Google Password Manager"),
        ]
    )
    func shippedNames(aaguid: String, name: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            phone.aaguid = Self.aaguid(aaguid)
            let credential = try await api.enroll("ada", authenticator: &phone)
            #expect(credential.name == name)
            #expect(credential.authenticatorName == name)
        }
    }

    @Test("an all-zero AAGUID (attestation none) is a plain passkey whose provider the browser withheld")
    func withheld() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var phone = TestAuthenticator()
            phone.aaguid = [UInt8](repeating: 0, count: 16)
            try await DemoTests.signUp("zed", web, &phone)
            let account = try await web.get("/account")
            #expect(account.text.contains("Not disclosed by the browser"))
            #expect(!account.text.contains("Unknown authenticator"))
            let console = try await ConsoleTests.signedInConsole(api)
            let users = try await api.backend(.get, "/v1/users?query=zed").json()
            let id = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
            let page = try await console.get("/console/users/\(id)")
            #expect(page.text.contains("None (the model was not attested)"))
            #expect(!page.text.contains("none (none)"))
        }
    }
}
