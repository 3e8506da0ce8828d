import Foundation

/// Finds the real-device conformance corpus: `$PASSKEYS_CONFORMANCE_DIR`, or `../shared/conformance`
/// beside the package. The corpus is data kept outside this repository; tests that need it skip when absent.
enum ConformanceCorpus {
    static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_CONFORMANCE_DIR"], !path.isEmpty {
            return fileManager.fileExists(atPath: path + "/cases") ? URL(fileURLWithPath: path) : nil
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let sibling = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        return fileManager.fileExists(atPath: sibling.path + "/cases") ? sibling : nil
    }()

    static var isAvailable: Bool { directory != nil }

    /// The case file names, sorted; empty when the corpus is absent.
    static func caseFiles() -> [String] {
        guard let directory else { return [] }
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cases").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func data(_ relativePath: String) throws -> Data {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }
}
