import ArgumentParser
import Foundation
import PasskeyClient

/// `--save DIR` of `register` and `sign-in`: the options the server sent and the response the device made, as JSON
/// files, so that `passkeys inspect` and `passkeys verify` can be tried on a real ceremony.
struct SaveOption: ParsableArguments {
    @Option(
        name: .customLong("save"),
        help: ArgumentHelp(
            "A folder to save the server's options and the device's response in, as JSON (for inspect and verify).",
            valueName: "dir"
        )
    )
    var directory: String?

    /// Writes `value` as `name` in the folder (made when missing) and returns the file's path.
    func write(_ value: some Encodable, as name: String) throws(PasskeyError) -> String {
        guard let directory else { return "" }
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(value).write(to: URL(fileURLWithPath: path))
        } catch {
            throw PasskeyError(.invalidInput, "--save could not write \(path): \(error.localizedDescription)")
        }
        return path
    }
}
