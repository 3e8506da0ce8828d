import Foundation
import ProcessTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `passkeys serve` process — the built executable, as a user runs it — on a port of localhost that the
/// server chose itself (`--port 0`), with a SQLite file in a temporary folder, stopped and removed when the body
/// returns, and killed with the test process should that die first.
struct PasskeysServeProcess: Sendable {
    static let apiKey = "pk_browser_tests_0123456789abcdef"

    let port: Int
    let folder: URL
    var baseURL: String { "http://localhost:\(port)" }

    /// The executable (see ``PasskeysExecutable``).
    static var executable: URL { PasskeysExecutable.url ?? URL(fileURLWithPath: "passkeys") }

    /// Runs `body` with a server started with `configuration` (a JSON configuration file's contents, if any)
    /// and `sqliteOption` after its database file's path (such as `?synchronous=full`).
    static func with<Value>(
        configuration: String? = nil,
        sqliteOption: String = "",
        _ body: (PasskeysServeProcess) async throws -> Value
    ) async throws -> Value {
        let executable = Self.executable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(
                "No passkeys executable at \(executable.path): run `swift build` first or set PASSKEYS_BINARY."
            )
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-browser-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = [
            "serve", "--port", "0", "--database", "sqlite:\(folder.path)/passkeys.sqlite\(sqliteOption)",
            "--api-key",
            apiKey,
        ]
        if let configuration {
            let file = folder.appendingPathComponent("passkeys.json")
            try Data(configuration.utf8).write(to: file)
            arguments += ["--config", file.path]
        }
        let log = folder.appendingPathComponent("server.log")
        let process = try ChildProcess.launch(
            executable.path,
            arguments,
            directory: folder,
            output: log,
            error: log
        )
        let server: PasskeysServeProcess
        do {
            server = PasskeysServeProcess(port: try await boundPort(of: process, log: log), folder: folder)
        } catch {
            await process.stop()
            throw error
        }
        do {
            let value = try await body(server)
            await process.stop()
            return value
        } catch {
            await process.stop()
            // The server's side of a failed test, which its folder (removed on return) would otherwise take along.
            let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").suffix(40) ?? []
            print("The last lines of passkeys serve's log on port \(server.port):\n" + lines.joined(separator: "\n"))
            throw error
        }
    }

    /// The port `passkeys serve --port 0` listens on, from the first line it prints once it listens
    /// (`passkeys serving http://localhost:PORT …`). No time limit of its own: the server either prints it or
    /// exits, and a test's own time limit covers a hang.
    private static func boundPort(of process: ChildProcess, log: URL) async throws -> Int {
        let prefix = "passkeys serving http://localhost:"
        while true {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                let port = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
            {
                return port
            }
            if let status = process.terminationStatus {
                throw Failure("passkeys serve exited with status \(status): \(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A backend API call with the server's API key; the JSON response.
    func backend(_ path: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.setValue("Bearer \(Self.apiKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure("\(path) did not answer with a JSON object")
        }
        return object
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
