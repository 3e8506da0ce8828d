import Testing

@testable import QRCode

@Suite("Versions, capacities and the version chosen")
struct VersionTests {
    /// Byte-mode capacity at level M for versions 1–10 (ISO/IEC 18004 Table 7).
    static let capacitiesAtM = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]

    @Test("a symbol of version v is 17 + 4v modules wide", arguments: 1...10)
    func size(version: Int) throws {
        let code = try QRCode(bytes: [UInt8](repeating: 0x41, count: VersionTests.capacitiesAtM[version - 1]))
        #expect(code.version == version)
        #expect(code.size == 17 + 4 * version)
        #expect(code.size == 21 + 4 * (version - 1))
    }

    @Test("byte-mode capacity at level M per version", arguments: zip(1...10, capacitiesAtM))
    func capacityAtM(version: Int, capacity: Int) {
        #expect(QRCode.byteCapacity(version: version) == capacity)
        #expect(QRCode.byteCapacity(version: version, errorCorrection: .medium) == capacity)
    }

    @Test("byte-mode capacity of version 1 and 10 at each level")
    func capacityPerLevel() {
        #expect(QRCode.byteCapacity(version: 1, errorCorrection: .low) == 17)
        #expect(QRCode.byteCapacity(version: 1, errorCorrection: .quartile) == 11)
        #expect(QRCode.byteCapacity(version: 1, errorCorrection: .high) == 7)
        #expect(QRCode.byteCapacity(version: 10, errorCorrection: .low) == 271)
        #expect(QRCode.byteCapacity(version: 10, errorCorrection: .quartile) == 151)
        #expect(QRCode.byteCapacity(version: 10, errorCorrection: .high) == 119)
        #expect(QRCode.byteCapacity(version: 0) == 0)
        #expect(QRCode.byteCapacity(version: 11) == 0)
    }

    @Test("the smallest version that holds the payload is chosen, at both sides of each boundary", arguments: 1...10)
    func boundary(version: Int) throws {
        let capacity = Self.capacitiesAtM[version - 1]
        #expect(try QRCode(bytes: [UInt8](repeating: 0x30, count: capacity)).version == version)
        if version < 10 {
            #expect(try QRCode(bytes: [UInt8](repeating: 0x30, count: capacity + 1)).version == version + 1)
        }
    }

    @Test("an empty payload is a version 1 symbol")
    func empty() throws {
        #expect(try QRCode(bytes: []).version == 1)
        #expect(try QRCode(text: "").version == 1)
    }

    @Test("text is encoded as its UTF-8 bytes")
    func text() throws {
        let text = "é☃ approve"
        #expect(try QRCode(text: text) == QRCode(bytes: Array(text.utf8)))
    }

    @Test("a payload larger than version 10 holds is refused with PAYLOAD_TOO_LARGE naming the capacity")
    func tooLarge() throws {
        #expect(throws: QRCodeError(.payloadTooLarge, "")) { try QRCode(bytes: [UInt8](repeating: 1, count: 214)) }
        do {
            _ = try QRCode(bytes: [UInt8](repeating: 1, count: 214))
            Issue.record("a 214-byte payload was accepted")
        } catch {
            #expect(error.code == .payloadTooLarge)
            #expect(error.code.rawValue == "PAYLOAD_TOO_LARGE")
            #expect(error.reason.contains("213 bytes"))
            #expect(error.reason.contains("level M"))
        }
        #expect(throws: QRCodeError(.payloadTooLarge, "")) {
            try QRCode(bytes: [UInt8](repeating: 1, count: 120), errorCorrection: .high)
        }
        #expect(try QRCode(bytes: [UInt8](repeating: 1, count: 214), errorCorrection: .low).version == 9)
        #expect(try QRCode(bytes: [UInt8](repeating: 1, count: 271), errorCorrection: .low).version == 10)
    }
}
