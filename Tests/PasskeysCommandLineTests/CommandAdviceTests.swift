import Foundation
import PasskeysCommandLine
import Testing

/// Mistakes a newcomer makes with the device commands, each answered with advice that fits it.
@Suite("passkeys device commands: advice that fits the mistake")
struct CommandAdviceTests {
    @Test("a server URL with a path, https against an http server, and a wrong API key each say what is wrong")
    func advice() async throws {
        try await DeviceCommandTests.withServer { setup in
            let port = try #require(setup.server.split(separator: ":").last)
            let withPath = await setup.run(
                ["register", "--server", setup.server + "/v1", "--key-store", setup.keyStore, "--user", "ann"]
            )
            #expect(withPath.exitCode != 0)
            #expect(withPath.standardError.contains("without a path"), "\(withPath.standardError)")
            #expect(withPath.standardError.contains("drop '/v1'"))

            let https = await setup.run(
                ["register", "--server", "https://localhost:\(port)", "--key-store", setup.keyStore, "--user", "ann"]
            )
            #expect(https.exitCode != 0)
            #expect(https.standardError.contains("use http://"), "\(https.standardError)")

            let wrongKey = await setup.run(
                ["register"] + setup.device + ["--user", "ann"],
                environment: ["PASSKEYS_API_KEY": "pk_not_the_key_0123456789abcdef"]
            )
            #expect(wrongKey.exitCode != 0)
            #expect(wrongKey.standardError.contains("refused the API key"), "\(wrongKey.standardError)")
            #expect(!wrongKey.standardError.contains("INVALID_OR_EXPIRED_SESSION"))
        }
    }
}
