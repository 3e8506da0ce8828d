import Foundation
public import Testing

/// Where the browser for browser tests comes from, and whether those tests run.
///
/// The executable is `PASSKEYS_CHROMIUM` when that is set, else the first of `chromium`, `chromium-browser` and
/// `google-chrome` on `PATH`. Without one, browser tests are skipped, saying why, unless
/// `PASSKEYS_REQUIRE_BROWSER=1` (as `scripts/test.sh` sets): then they run and fail.
public enum Chromium {
    public static let executableVariable = "PASSKEYS_CHROMIUM"
    public static let requiredVariable = "PASSKEYS_REQUIRE_BROWSER"
    static let names = ["chromium", "chromium-browser", "google-chrome"]

    /// The browser's executable, or why there is none.
    public static func locate() -> Result<String, BrowserError> {
        let environment = ProcessInfo.processInfo.environment
        let files = FileManager.default
        if let path = environment[executableVariable], !path.isEmpty {
            return files.isExecutableFile(atPath: path)
                ? .success(path)
                : .failure(.chromiumNotFound("\(executableVariable)=\(path) is not an executable file."))
        }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for name in names {
            for directory in directories {
                let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
                if files.isExecutableFile(atPath: path) { return .success(path) }
            }
        }
        return .failure(
            .chromiumNotFound(
                "none of \(names.joined(separator: ", ")) is on PATH, and \(executableVariable) is not set. "
                    + "Install Debian's chromium package (scripts/test.sh does), or point \(executableVariable) at one."
            )
        )
    }

    public static var isAvailable: Bool { (try? locate().get()) != nil }

    /// Whether a missing browser fails the browser tests instead of skipping them.
    public static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment[requiredVariable] ?? ""
        return !value.isEmpty && value != "0"
    }

    public static let skipped: Comment =
        "No Chromium found: install Debian's chromium package or set PASSKEYS_CHROMIUM; scripts/test.sh installs it and sets PASSKEYS_REQUIRE_BROWSER=1 so these tests cannot be skipped there."
}

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only when there is a browser to drive, or when one is required (then it fails).
    public static var requiresChromium: Self {
        .enabled(if: Chromium.isAvailable || Chromium.isRequired, Chromium.skipped)
    }
}
