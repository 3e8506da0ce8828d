import Foundation
import ProcessTestSupport
import Testing

/// `passkeys serve` as the README starts it — no configuration, no API key, its SQLite file in the folder it runs in —
/// with one difference: `--port 0`, so that it listens on a port of its own. The body gets its address and the
/// development API key it printed.
enum ReadmeServer {
    static func run<Value>(
        in folder: String,
        _ body: (_ baseURL: URL, _ apiKey: String) async throws -> Value
    ) async throws -> Value {
        let executable = try #require(PasskeysExecutable.url, "the passkeys executable is not built: run swift build")
        let server = try ChildProcess.launch(
            executable.path,
            ["serve", "--port", "0"],
            directory: URL(fileURLWithPath: folder)
        )
        do {
            let (baseURL, apiKey) = try await announcement(of: server)
            let value = try await body(baseURL, apiKey)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The address and development key from the lines the server prints once it listens:
    /// `passkeys serving http://localhost:PORT (…)` and `development API key (…): pk_dev_…`.
    private static func announcement(of server: ChildProcess) async throws -> (URL, String) {
        while true {
            let lines = server.standardOutput.split(separator: "\n")
            if let serving = lines.first(where: { $0.hasPrefix("passkeys serving ") }),
                let address = serving.split(separator: " ").dropFirst(2).first.flatMap({ URL(string: String($0)) }),
                let keyLine = lines.first(where: { $0.hasPrefix("development API key") }),
                let key = keyLine.split(separator: " ").last
            {
                return (address, String(key))
            }
            let status = server.terminationStatus
            try #require(status == nil, "passkeys serve exited: \(server.standardError)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
