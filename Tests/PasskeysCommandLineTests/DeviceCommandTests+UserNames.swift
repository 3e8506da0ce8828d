import Foundation
import PasskeyClient
import Testing

@testable import PasskeysCommandLine

extension DeviceCommandTests {
    @Test("--user is the user name: a user another channel created (their id is not the name) is found by it")
    func userNameLeadsToTheUser() async throws {
        try await Self.withServer { setup in
            // A user as the web pages or an integrator create them: an id of their own, and the name newbie.
            let backend = PasskeyBackendAPI(serverBaseURL: try #require(URL(string: setup.server)), apiKey: Self.apiKey)
            _ = try await backend.createRegistration(userId: "web-7", userName: "newbie")

            let registered = await setup.run(["register"] + setup.device + ["--user", "newbie"])
            #expect(registered.exitCode == 0, "\(registered.standardError)")
            #expect(try await backend.user(named: "newbie")?.userId == "web-7")
            #expect(try await backend.user(named: "newbie")?.activeCredentials == 1, "the passkey is newbie's")

            let signedIn = await setup.run(["sign-in"] + setup.device + ["--user", "newbie"])
            #expect(signedIn.exitCode == 0, "\(signedIn.standardError)")
            #expect(signedIn.standardOutput.contains("Signed in as web-7."))

            let unknown = await setup.run(["sign-in"] + setup.device + ["--user", "web-7"])
            #expect(unknown.exitCode == 1, "a user id is not a user name")
            #expect(unknown.standardError.contains("No user is named web-7"))
        }
    }
}
