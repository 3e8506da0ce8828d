public import Foundation
import Testing

/// Where browser tests put their screenshots: a folder per test under `PASSKEYS_SCREENSHOTS_DIR`, or under
/// `.build/screenshots` in this checkout when that is not set (git ignores `.build`).
public enum Screenshots {
    public static var root: URL {
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_SCREENSHOTS_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is Tests/BrowserTestSupport/Screenshots.swift: three levels below the checkout.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return checkout.appendingPathComponent(".build/screenshots", isDirectory: true)
    }

    /// The running test's folder (`Suite.test`), created and printed so that a person can look.
    public static func folder() throws(BrowserError) -> URL {
        let name =
            (Test.current?.id.nameComponents ?? ["unnamed"]).joined(separator: ".")
            .replacingOccurrences(of: "()", with: "")
            .map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? String($0) : "_" }.joined()
        let folder = root.appendingPathComponent(name, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .unexpected("Creating the screenshot folder \(folder.path) failed: \(error)")
        }
        print("Screenshots of \(name): \(folder.path)")
        return folder
    }
}
