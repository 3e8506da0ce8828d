import Foundation

/// Finds the real-device conformance corpus: `$PASSKEYS_CONFORMANCE_DIR`, or `../shared/conformance`
/// beside the package. The corpus is data kept outside this repository. Its tests skip when it is absent, unless
/// it is required: `PASSKEYS_CONFORMANCE_DIR` is set (a wrong path fails, it is not skipped) or
/// `PASSKEYS_REQUIRE_CONFORMANCE=1` (as `scripts/test.sh` sets).
enum ConformanceCorpus {
    static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_CONFORMANCE_DIR"], !path.isEmpty {
            // Named explicitly: used as it is, so that a wrong path makes the tests fail rather than skip.
            return URL(fileURLWithPath: path)
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let sibling = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        return fileManager.fileExists(atPath: sibling.path + "/cases") ? sibling : nil
    }()

    static var isAvailable: Bool { directory != nil }

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["PASSKEYS_REQUIRE_CONFORMANCE"] == "1"
    }

    /// Whether the corpus tests run: the corpus is there, or it is required (and its absence is a failure).
    static var shouldRun: Bool { directory != nil || isRequired }

    /// The case file names, sorted; empty when the corpus is absent or its folder cannot be read (the count check
    /// in ``ConformanceCorpusTests`` then fails).
    static func caseFiles() -> [String] {
        guard let directory else { return [] }
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cases").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The number of cases the corpus's README states ("168 cases: …"): the count to read, from the corpus itself.
    static func statedCaseCount() throws -> Int {
        let readme = String(decoding: try data("README.md"), as: UTF8.self)
        let match = try #/(?m)^(\d+) cases:/#.firstMatch(in: readme)
        guard let match, let count = Int(match.1) else { throw CocoaError(.fileReadCorruptFile) }
        return count
    }

    /// The cases the README's "Skip list: 024, 055, …" names, by number.
    static func statedSkips() throws -> Set<String> {
        let readme = String(decoding: try data("README.md"), as: UTF8.self)
        guard let line = readme.split(separator: "\n").first(where: { $0.contains("Skip list:") }) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let list = line[line.range(of: "Skip list:")!.upperBound...].prefix { $0 != "(" }
        return Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    static func data(_ relativePath: String) throws -> Data {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }
}
