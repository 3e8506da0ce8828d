import Foundation
import Testing

@Suite("docs/sdk.md")
struct LinuxExampleTests {
    @Test("the Linux example enrolls, signs in, and signs in again from a new process's key store")
    func linuxExample() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LiveServer.run { server in
            let path = folder.file("keys.json")
            let first = try await enrollAndSignIn(
                server: server.baseURL,
                apiKey: LiveServer.apiKey,
                keyStorePath: path,
                passphrase: "example passphrase"
            )
            #expect(first == "alice")
            // A second run (a restarted program) finds the passkey in the key store and only signs in.
            let second = try await enrollAndSignIn(
                server: server.baseURL,
                apiKey: LiveServer.apiKey,
                keyStorePath: path,
                passphrase: "example passphrase"
            )
            #expect(second == "alice")
        }
    }

    @Test("the guide carries the Linux example as it is compiled here")
    func guideMatches() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/sdk.md"), encoding: .utf8)
        let example = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "LinuxExample.swift"
            ),
            encoding: .utf8
        )
        let body = try #require(example.range(of: "func enrollAndSignIn").map { String(example[$0.lowerBound...]) })
        #expect(
            guide.contains(body.trimmingCharacters(in: .whitespacesAndNewlines)),
            "docs/sdk.md must contain LinuxExample.swift's function verbatim"
        )
    }
}
