import Foundation
import Hummingbird
import HummingbirdTesting
import PasskeysCommandLine
import Testing

/// `passkeys serve` on a port another program holds: it says so, with what to do, and never claims to serve.
struct ServeBusyPortTests {
    @Test func aBusyPortFailsBeforeTheBannerAndSaysWhatToDo() async throws {
        let holder = Application(router: Router())
        try await holder.test(.live) { client in
            let port = try #require(client.port)
            let result = await passkeys([
                "serve", "--host", "127.0.0.1", "--port", String(port), "--database", "memory", "--api-key",
                "pk_busy_port_test_0123456789abcdef",
            ])
            #expect(result.exitCode == 1)
            #expect(!result.standardOutput.contains("passkeys serving"), "\(result.standardOutput)")
            #expect(result.standardError.contains("127.0.0.1:\(port) is in use"), "\(result.standardError)")
            #expect(result.standardError.contains("--port or PASSKEYS_PORT"))
        }
    }
}

/// `passkeys serve --log-level`: a level that does not exist is refused before anything starts, naming the levels.
struct ServeLogLevelTests {
    @Test func anUnknownLogLevelIsAUsageErrorThatNamesTheLevels() async {
        let result = await passkeys(["serve", "--database", "memory", "--log-level", "loud"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("not 'loud'"), "\(result.standardError)")
        #expect(result.standardError.contains("trace, debug, info, notice, warning, error, critical"))
        #expect(!result.standardOutput.contains("passkeys serving"))
    }
}
