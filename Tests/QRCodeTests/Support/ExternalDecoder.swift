import Foundation
import ProcessTestSupport
import Testing

/// An independent reader for round-trip tests: `rsvg-convert` (Debian's librsvg2-bin) rasterises the SVG and
/// `zbarimg` (Debian's zbar-tools) decodes the PNG.
///
/// Both are looked up on `PATH`. Without them the decoder tests are skipped, saying why, unless
/// `PASSKEYS_REQUIRE_QR_DECODER=1` (as `scripts/test.sh` sets): then they run and fail.
enum ExternalDecoder {
    static let requiredVariable = "PASSKEYS_REQUIRE_QR_DECODER"
    static let rasteriser = "rsvg-convert"
    static let reader = "zbarimg"
    /// How long one external process may run before it counts as hung: far beyond what a loaded 2-core machine
    /// needs (well under a second each).
    static let timeout: Duration = .seconds(120)

    static let skipped: Comment =
        "zbarimg or rsvg-convert is not on PATH: install Debian's zbar-tools and librsvg2-bin; scripts/test.sh installs them and sets PASSKEYS_REQUIRE_QR_DECODER=1 so these tests cannot be skipped there."

    /// The executable called `name` in a directory of `PATH`, if any.
    static func locate(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return directories.lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var isAvailable: Bool { locate(rasteriser) != nil && locate(reader) != nil }

    /// Whether missing tools fail the decoder tests instead of skipping them.
    static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment[requiredVariable] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// The text zbarimg reads from `svg` rasterised 400 pixels wide on white, without zbarimg's final newline.
    static func decode(svg: String) async throws -> String {
        guard let rasteriser = locate(rasteriser), let reader = locate(reader) else {
            throw Failure("\(Self.rasteriser) and \(Self.reader) must both be on PATH")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qrcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        try Data(svg.utf8).write(to: directory.appendingPathComponent("code.svg"))
        _ = try await run(rasteriser, ["-w", "400", "-b", "white", "-o", "code.png", "code.svg"], in: directory)
        var output = try await run(reader, ["-q", "--raw", "code.png"], in: directory)
        if output.last == 0x0A { output.removeLast() }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw Failure("zbarimg's output is not UTF-8: \(output)")
        }
        return text
    }

    /// Runs `executable` in `directory` and returns its standard output; fails on a non-zero exit status or
    /// when it outlasts ``timeout``.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws -> [UInt8] {
        let run = try await ChildProcess.run(executable, arguments, directory: directory, timeout: timeout)
        guard run.status == 0 else {
            throw Failure(
                "\(executable) \(arguments.joined(separator: " ")) exited with \(run.status): \(run.standardError)"
            )
        }
        return run.output
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when rsvg-convert and zbarimg are on PATH, or when they are required (then it fails).
    static var requiresExternalDecoder: Self {
        .enabled(if: ExternalDecoder.isAvailable || ExternalDecoder.isRequired, ExternalDecoder.skipped)
    }
}
