public import Foundation

/// The built `passkeys` executable that tests run as a user would: `PASSKEYS_BINARY` (or `PASSKEYS_EXECUTABLE`) when
/// set, else `passkeys` in the build products folder that holds the test bundle.
public enum PasskeysExecutable {
    public static let url: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PASSKEYS_BINARY"] ?? environment["PASSKEYS_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var starts = Bundle.allBundles.map(\.bundleURL) + [Bundle.main.bundleURL]
        if let program = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: program).deletingLastPathComponent())
        }
        for start in starts {
            // The test bundle is in the products folder (Linux), or is a bundle there (macOS: …/X.xctest/Contents/MacOS).
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("passkeys")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()
}
