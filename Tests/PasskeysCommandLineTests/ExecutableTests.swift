import CorpusTestSupport
import Foundation
import Testing

/// Runs the built `passkeys` executable as a subprocess, for real exit codes and output streams.
@Suite("passkeys executable")
struct ExecutableTests {
    /// The `passkeys` executable in the build products directory, next to the test bundle
    /// (`$PASSKEYS_EXECUTABLE` overrides).
    static let executable: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var starts = Bundle.allBundles.map(\.bundleURL) + [Bundle.main.bundleURL]
        if let program = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: program).deletingLastPathComponent())
        }
        for start in starts {
            // The test bundle is in the products directory (Linux), or is a bundle there (macOS: …/X.xctest/Contents/MacOS).
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("passkeys")
                if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    struct Run {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ arguments: [String], stdin: Data = Data()) throws -> Run {
        let executable = try #require(
            Self.executable,
            "the passkeys executable is not in the build products directory; run `swift build` first"
        )
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }

    @Test func exitCodesAndStreams() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: passkeys"))

        let usage = try Self.run([
            "verify", "registration", "--response", "-", "--challenge", "not+base64url", "--origin",
            "https://example.com", "--rp-id", "example.com",
        ])
        #expect(usage.status == 2)
        #expect(usage.standardOutput.isEmpty)
        #expect(usage.standardError.contains("--challenge"))

        let missing = try Self.run([
            "verify", "registration", "--challenge", "AAAA", "--origin", "https://example.com", "--rp-id",
            "example.com",
        ])
        #expect(missing.status == 2)

        let malformed = try Self.run(
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

        let inspect = try Self.run(["inspect", "no-such-file"])
        #expect(inspect.status == 1)
        #expect(inspect.standardError.hasPrefix("error: FILE_UNREADABLE: "))
    }

    // Skipped when the conformance corpus (../shared/conformance or $PASSKEYS_CONFORMANCE_DIR) is absent, unless
    // PASSKEYS_REQUIRE_CONFORMANCE=1.
    @Test(.enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason)))
    func verifiesARealRegistration() throws {
        let testCase = try Corpus.load("004")
        let result = try Self.run(
            ["verify", "registration", "--response", "-"] + testCase.ceremonyArguments,
            stdin: testCase.responseJSON
        )
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(object?["verified"] as? Bool == true)
        #expect(object?["credentialId"] as? String == testCase.outcome.credentialId)

        let inspect = try Self.run(["inspect", "-"], stdin: testCase.responseJSON)
        #expect(inspect.status == 0)
        #expect(inspect.standardOutput.contains("webauthn.create"))
    }
}
