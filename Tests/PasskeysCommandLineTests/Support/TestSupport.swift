import Foundation
import PasskeysCommandLine
import WebAuthn

/// The fixed clock of the in-process tests (the default verification time when `--at` is not given).
let testNow = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21T00:00:00Z

/// Runs `passkeys` in-process with `arguments`, a fixed clock, and `stdin` as standard input.
func passkeys(_ arguments: [String], stdin: [UInt8] = []) async -> CommandResult {
    await PasskeysTool.run(arguments, environment: CommandEnvironment(standardInput: stdin, now: { testNow }))
}

/// The JSON object a `verify` command printed.
func outputObject(_ result: CommandResult) throws -> [String: JSONValue] {
    try JSONDecoder().decode([String: JSONValue].self, from: Data(result.standardOutput.utf8))
}

/// The error code of a failed verification's JSON, if it has one.
func errorCode(_ result: CommandResult) -> String? {
    guard case .object(let error)? = try? outputObject(result)["error"], case .string(let code)? = error["code"] else {
        return nil
    }
    return code
}

/// A directory for test files, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-cli-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to a file named `name` and returns its path.
    func file(_ name: String, _ contents: Data) throws -> String {
        let fileURL = url.appendingPathComponent(name)
        try contents.write(to: fileURL)
        return fileURL.path
    }

    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Data(text.utf8))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Whether `text` has a line `label: value…` at any indentation and padding (the value starts with `value`).
func hasField(_ text: String, _ label: String, _ value: String) -> Bool {
    text.split(separator: "\n").contains { line in
        let content = line.drop { $0 == " " }
        guard content.hasPrefix(label + ":") else { return false }
        return content.dropFirst(label.count + 1).drop { $0 == " " }.hasPrefix(value)
    }
}
