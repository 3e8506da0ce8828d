import CorpusTestSupport
import Foundation
import ProcessTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the built `passkeys` executable as a subprocess, for real exit codes and output streams.
@Suite("passkeys executable")
struct ExecutableTests {
    /// The `passkeys` executable in the build products directory (see ``PasskeysExecutable``).
    static var executable: URL? { PasskeysExecutable.url }

    struct Run {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ arguments: [String], stdin: Data = Data()) async throws -> Run {
        let executable = try #require(
            Self.executable,
            "the passkeys executable is not in the build products directory; run `swift build` first"
        )
        let run = try await ChildProcess.run(executable.path, arguments, input: Array(stdin))
        return Run(status: run.status, standardOutput: run.standardOutput, standardError: run.standardError)
    }

    @Test func exitCodesAndStreams() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: passkeys"))

        let usage = try await Self.run([
            "verify", "registration", "--response", "-", "--challenge", "not+base64url", "--origin",
            "https://example.com", "--rp-id", "example.com",
        ])
        #expect(usage.status == 2)
        #expect(usage.standardOutput.isEmpty)
        #expect(usage.standardError.contains("--challenge"))

        let missing = try await Self.run([
            "verify", "registration", "--challenge", "AAAA", "--origin", "https://example.com", "--rp-id",
            "example.com",
        ])
        #expect(missing.status == 2)

        let malformed = try await Self.run(
            [
                "verify", "registration", "--response", "-", "--challenge", "AAAA", "--origin", "https://example.com",
                "--rp-id", "example.com",
            ],
            stdin: Data("not json".utf8)
        )
        #expect(malformed.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(malformed.standardOutput.utf8)) as? [String: Any]
        #expect(object?["verified"] as? Bool == false)
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "MALFORMED_JSON")

        let inspect = try await Self.run(["inspect", "no-such-file"])
        #expect(inspect.status == 1)
        #expect(inspect.standardError.hasPrefix("error: FILE_UNREADABLE: "))
    }

    // Skipped when the conformance corpus (../shared/conformance or $PASSKEYS_CONFORMANCE_DIR) is absent, unless
    // PASSKEYS_REQUIRE_CONFORMANCE=1.
    @Test(.enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason)))
    func verifiesARealRegistration() async throws {
        let testCase = try Corpus.load("004")
        let result = try await Self.run(
            ["verify", "registration", "--response", "-"] + testCase.ceremonyArguments,
            stdin: testCase.responseJSON
        )
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(object?["verified"] as? Bool == true)
        #expect(object?["credentialId"] as? String == testCase.outcome.credentialId)

        let inspect = try await Self.run(["inspect", "-"], stdin: testCase.responseJSON)
        #expect(inspect.status == 0)
        #expect(inspect.standardOutput.contains("webauthn.create"))
    }

    @Test("serve --port 0 listens on a port the system chose, names it first, and holds it; SIGTERM is answered")
    func servesOnAPortItChose() async throws {
        let executable = try #require(Self.executable, "the passkeys executable is not built")
        let apiKey = "pk_port_zero_test_0123456789abcdef"
        let server = try ChildProcess.launch(
            executable.path,
            ["serve", "--port", "0", "--database", "memory", "--api-key", apiKey]
        )
        let prefix = "passkeys serving http://localhost:"
        var port: Int?
        while port == nil {
            let line = server.standardOutput.split(separator: "\n").first
            port = line.flatMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) : nil }
            let status = server.terminationStatus
            try #require(status == nil, "passkeys serve exited: \(server.standardError)")
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let chosen = try #require(port)
        #expect(chosen > 0)

        let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(chosen)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let second = try await Self.run([
            "serve", "--port", String(chosen), "--database", "memory", "--api-key", apiKey,
        ])
        #expect(second.status == 1)
        #expect(second.standardError.contains("is in use"), "\(second.standardError)")

        await server.stop()
        #expect(server.terminationStatus == 0, "\(server.standardError)")
        // SIGTERM is answered: the server says it is stopping, and then that it has stopped.
        #expect(
            server.standardOutput.hasSuffix("passkeys stopping: finishing the requests in progress\npasskeys stopped\n")
        )
    }
}
