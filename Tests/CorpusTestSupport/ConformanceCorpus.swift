public import Foundation

/// The one way the tests find and read the real-device conformance corpus: `$PASSKEYS_CONFORMANCE_DIR`, or
/// `../shared/conformance` beside the package. The corpus is data kept outside this repository. Its tests skip when
/// it is absent, unless it is required: `PASSKEYS_CONFORMANCE_DIR` is set (a wrong path fails, it is not skipped)
/// or `PASSKEYS_REQUIRE_CONFORMANCE=1` (as `scripts/test.sh` sets).
public enum ConformanceCorpus {
    public static let directory: URL? = {
        if let path = ProcessInfo.processInfo.environment["PASSKEYS_CONFORMANCE_DIR"], !path.isEmpty {
            // Named explicitly: used as it is, so that a wrong path makes the tests fail rather than skip.
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is <package>/Tests/CorpusTestSupport/ConformanceCorpus.swift.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sibling = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        return FileManager.default.fileExists(atPath: sibling.path + "/cases") ? sibling : nil
    }()

    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["PASSKEYS_REQUIRE_CONFORMANCE"] == "1"
    }

    /// Whether the corpus tests run: the corpus is there, or it is required (and its absence is a failure).
    public static var shouldRun: Bool { directory != nil || isRequired }

    /// Why the corpus tests were skipped, for `.enabled(if: shouldRun, …)`.
    public static let skipReason =
        "the conformance corpus is absent: set PASSKEYS_CONFORMANCE_DIR or place it at ../shared/conformance"

    public struct MissingData: Error, CustomStringConvertible {
        public let description: String
    }

    /// The case file names (`NNN-….json`), sorted; empty when the corpus is absent or its folder cannot be read
    /// (the count checks then fail).
    public static func caseFiles() -> [String] {
        guard let directory else { return [] }
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cases").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The file name of the case numbered `number` (such as "004").
    public static func caseFile(_ number: String) throws -> String {
        guard let name = caseFiles().first(where: { $0.hasPrefix(number + "-") }) else {
            throw MissingData(description: "no case \(number) in the conformance corpus at \(directory?.path ?? "–")")
        }
        return name
    }

    /// The path of a file in the corpus, such as `roots/apple-webauthn-root-ca.pem`.
    public static func path(_ relativePath: String) throws -> String {
        guard let directory else { throw MissingData(description: skipReason) }
        return directory.appendingPathComponent(relativePath).path
    }

    /// The bytes of a file in the corpus, such as `cases/004-….json`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(relativePath)))
    }

    /// The JSON object of the case file `file`.
    public static func json(_ file: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data("cases/" + file)) as? [String: Any] else {
            throw MissingData(description: "case \(file) is not a JSON object")
        }
        return object
    }

    /// The number of cases the corpus's README states ("168 cases: …"): the count to read, from the corpus itself.
    public static func statedCaseCount() throws -> Int {
        let readme = String(decoding: try data("README.md"), as: UTF8.self)
        let match = try #/(?m)^(\d+) cases:/#.firstMatch(in: readme)
        guard let match, let count = Int(match.1) else { throw CocoaError(.fileReadCorruptFile) }
        return count
    }

    /// The cases the README's "Skip list: 024, 055, …" names, by number.
    public static func statedSkips() throws -> Set<String> {
        let readme = String(decoding: try data("README.md"), as: UTF8.self)
        guard let line = readme.split(separator: "\n").first(where: { $0.contains("Skip list:") }) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let list = line[line.range(of: "Skip list:")!.upperBound...].prefix { $0 != "(" }
        return Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }
}
