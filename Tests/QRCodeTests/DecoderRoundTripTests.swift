import Testing

@testable import QRCode

/// A payload for the round trip through rsvg-convert and zbarimg.
struct RoundTripPayload: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    var errorCorrection: ErrorCorrection = .medium

    var testDescription: String { "\(name) (\(text.utf8.count) bytes, level \(errorCorrection.letter))" }
}

/// A small deterministic generator (SplitMix64), so that the "random" payloads are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Round trip through an independent decoder (rsvg-convert, zbarimg)", .requiresExternalDecoder)
struct DecoderRoundTripTests {
    static let capacities = (1...10).map { QRCode.byteCapacity(version: $0) }

    /// Printable ASCII of `length` characters.
    static func ascii(_ length: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(state: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -._~:/?#[]@!$&'()*+,;=%")
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "x" })
    }

    /// Valid UTF-8 of at most `byteCount` bytes from Latin, Greek, Cyrillic, symbols, CJK and emoji.
    static func unicode(byteCount: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(state: seed)
        let ranges: [ClosedRange<UInt32>] =
            [0x20...0x7E, 0xC0...0x17F, 0x391...0x3C9, 0x410...0x44F, 0x2600...0x26FF]
            + [0x3041...0x3096, 0x4E00...0x9FA5, 0x1F300...0x1F5FF]
        var scalars = String.UnicodeScalarView()
        var used = 0
        while true {
            let range = ranges.randomElement(using: &generator) ?? 0x41...0x5A
            guard let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) else { continue }
            let length = String(scalar).utf8.count
            if used + length > byteCount { break }
            scalars.append(scalar)
            used += length
        }
        return String(scalars)
    }

    /// A cross-device approval link with a base64url handle of `handleLength` characters.
    static func approvalURL(handleLength: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(state: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let handle = String((0..<handleLength).map { _ in alphabet.randomElement(using: &generator) ?? "A" })
        return "http://localhost:8080/approve#pkh_\(handle)"
    }

    static let payloads: [RoundTripPayload] = {
        var payloads: [RoundTripPayload] = []
        // Every version filled to capacity, and one byte past the previous version's capacity.
        for version in 1...10 {
            let capacity = capacities[version - 1]
            payloads.append(.init(name: "version \(version) full", text: ascii(capacity, seed: UInt64(version))))
            if version > 1 {
                let length = capacities[version - 2] + 1
                payloads.append(
                    .init(name: "version \(version) smallest", text: ascii(length, seed: UInt64(100 + version)))
                )
            }
        }
        // Random lengths.
        var generator = SeededGenerator(state: 2_024)
        for index in 0..<6 {
            let length = Int.random(in: 1...213, using: &generator)
            payloads.append(.init(name: "random ASCII \(index)", text: ascii(length, seed: UInt64(200 + index))))
        }
        // Non-ASCII text as UTF-8.
        payloads.append(.init(name: "é☃", text: "é☃"))
        payloads.append(.init(name: "emoji", text: "🔑 passkey ✓"))
        payloads.append(.init(name: "Japanese", text: "パスキーでサインインを承認"))
        for (index, size) in [40, 120, 213].enumerated() {
            payloads.append(
                .init(name: "random UTF-8 \(index)", text: unicode(byteCount: size, seed: UInt64(300 + index)))
            )
        }
        // Approval links.
        for (index, handle) in [22, 43, 86, 150, 179].enumerated() {
            payloads.append(
                .init(
                    name: "approval link \(index)",
                    text: approvalURL(handleLength: handle, seed: UInt64(400 + index))
                )
            )
        }
        // The other error correction levels.
        for level in [ErrorCorrection.low, .quartile, .high] {
            payloads.append(.init(name: "short", text: "http://localhost:8080/approve#pkh_x", errorCorrection: level))
            let capacity = QRCode.byteCapacity(version: 10, errorCorrection: level)
            payloads.append(.init(name: "version 10 full", text: ascii(capacity, seed: 500), errorCorrection: level))
        }
        return payloads
    }()

    @Test("zbarimg reads back exactly the payload", arguments: payloads)
    func roundTrip(_ payload: RoundTripPayload) async throws {
        let code = try QRCode(text: payload.text, errorCorrection: payload.errorCorrection)
        let decoded = try await ExternalDecoder.decode(svg: code.svg())
        #expect(decoded == payload.text, "version \(code.version), mask \(code.maskPattern)")
    }

    @Test("the payloads cover every version")
    func coverage() throws {
        let versions = try Set(
            Self.payloads.map { try QRCode(text: $0.text, errorCorrection: $0.errorCorrection).version }
        )
        #expect(versions == Set(1...10))
    }

    @Test("every mask pattern decodes: one symbol per mask, forced", arguments: 0..<8)
    func forcedMask(mask: Int) async throws {
        let text = "http://localhost:8080/approve#pkh_mask\(mask)"
        let code = try QRCode(bytes: Array(text.utf8), errorCorrection: .medium, mask: MaskPattern(rawValue: mask))
        #expect(code.maskPattern == mask)
        #expect(try await ExternalDecoder.decode(svg: code.svg()) == text)
    }
}
