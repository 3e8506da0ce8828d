import Foundation
import ProcessTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phone of a cross-device approval in the browser tests: the built `passkeys` executable (`passkeys register`,
/// `passkeys approve`) with its own key store in a temporary folder, against a ``PasskeysServeProcess``.
struct PhoneCommandLine {
    let server: PasskeysServeProcess
    /// The key store file, in the server's temporary folder.
    var keyStore: String { server.folder.appendingPathComponent("phone-keys.json").path }

    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `passkeys ARGUMENTS --server URL --key-store FILE` to its end (three minutes at most); without `--server`
    /// for a command of the key store alone (`keys list`).
    func run(_ arguments: [String], server serverOption: Bool = true) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["PASSKEYS_API_KEY"] = PasskeysServeProcess.apiKey
        environment["PASSKEYS_KEY_STORE_PASSPHRASE"] = "browser tests' phone"
        let run = try await ChildProcess.run(
            PasskeysServeProcess.executable.path,
            arguments + (serverOption ? ["--server", server.baseURL] : []) + ["--key-store", keyStore],
            environment: environment,
            timeout: .seconds(180)
        )
        return Result(status: run.status, standardOutput: run.standardOutput, standardError: run.standardError)
    }
}

/// `zbarimg` (Debian's zbar-tools) reads a QR code from a screenshot. Without it the tests that need it are skipped,
/// saying why, unless `PASSKEYS_REQUIRE_QR_DECODER=1` (as `scripts/test.sh` sets): then they run and fail.
enum QRCodeReader {
    static let reader = "zbarimg"

    static var path: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(reader).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment["PASSKEYS_REQUIRE_QR_DECODER"] ?? ""
        return !value.isEmpty && value != "0"
    }

    static let skipped: Comment =
        "zbarimg is not on PATH: install Debian's zbar-tools; scripts/test.sh installs it and sets PASSKEYS_REQUIRE_QR_DECODER=1 so this test cannot be skipped there."

    /// The text of the QR code in the PNG `image`, without zbarimg's final newline.
    static func decode(_ image: URL) async throws -> String {
        guard let path else { throw PasskeysServeProcess.Failure("\(reader) is not on PATH") }
        let run = try await ChildProcess.run(path, ["-q", "--raw", image.path], timeout: .seconds(180))
        guard run.status == 0 else {
            throw PasskeysServeProcess.Failure("\(reader) found no QR code in \(image.path) (\(run.status))")
        }
        var text = run.standardOutput
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when zbarimg is on PATH, or when it is required (then it fails).
    static var requiresQRCodeReader: Self {
        .enabled(if: QRCodeReader.path != nil || QRCodeReader.isRequired, QRCodeReader.skipped)
    }
}

extension PasskeysServeProcess {
    /// A backend API `POST` with the server's API key; the JSON response.
    func backend(post path: String, json: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(Self.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            (response as? HTTPURLResponse)?.statusCode ?? 0 < 300
        else {
            throw Failure("POST \(path) answered \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    /// A sign-in session created with the backend API (`body`), handed off: its link and number.
    func handoff(_ body: String) async throws -> (link: String, code: String) {
        let session = try await backend(post: "/v1/authentications", json: body)
        let id = try #require(session["biometricPasskeySessionId"] as? String)
        let handoff = try await backend(post: "/v1/authentications/\(id)/handoff", json: "{}")
        return (try #require(handoff["deepLink"] as? String), try #require(handoff["verificationCode"] as? String))
    }
}
