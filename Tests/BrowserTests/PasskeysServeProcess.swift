import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real `passkeys serve` process — the built executable, as a user runs it — on a free port of localhost, with
/// a SQLite file in a temporary folder, stopped and removed when the body returns.
struct PasskeysServeProcess: Sendable {
    static let apiKey = "pk_browser_tests_0123456789abcdef"

    let port: Int
    let folder: URL
    var baseURL: String { "http://localhost:\(port)" }

    /// The executable: `PASSKEYS_BINARY`, else `passkeys` beside the test bundle (both are build products).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "passkeys"
        )
    }

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
        let port = try freePort()
        var arguments = [
            "serve", "--port", String(port), "--database", "sqlite:\(folder.path)/passkeys.sqlite\(sqliteOption)",
            "--api-key",
            apiKey,
        ]
        if let configuration {
            let file = folder.appendingPathComponent("passkeys.json")
            try Data(configuration.utf8).write(to: file)
            arguments += ["--config", file.path]
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer {
            stop(process)
            try? handle.close()
        }
        let server = PasskeysServeProcess(port: port, folder: folder)
        try await server.waitUntilHealthy(process: process, log: log)
        do {
            return try await body(server)
        } catch {
            // The server's side of a failed test, which its folder (removed on return) would otherwise take along.
            let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").suffix(40) ?? []
            print("The last lines of passkeys serve's log on port \(port):\n" + lines.joined(separator: "\n"))
            throw error
        }
    }

    private func waitUntilHealthy(process: Process, log: URL) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw Failure("passkeys serve exited: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            if let (_, response) = try? await URLSession.shared.data(from: URL(string: baseURL + "/health")!),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(
            "passkeys serve did not become healthy within 60 s: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")"
        )
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

    /// SIGTERM, and SIGKILL when the server has not exited after five seconds (a test runner may leave SIGTERM
    /// ignored in the processes it starts).
    private static func stop(_ process: Process) {
        process.terminate()
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A port the system reports free (a listener on port 0, closed again).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Failure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
