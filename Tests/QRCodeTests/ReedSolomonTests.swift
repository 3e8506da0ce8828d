import Testing

@testable import QRCode

@Suite("Reed–Solomon error correction over GF(256)")
struct ReedSolomonTests {
    @Test("GF(256): α⁸ = α⁴ + α³ + α² + 1 and every non-zero element has an inverse")
    func field() {
        #expect(GaloisField.power(8) == 0b0001_1101)
        #expect(GaloisField.power(255) == 1)
        for value in UInt8(1)...UInt8(255) {
            let inverse = GaloisField.power(255 - GaloisField.logarithms[Int(value)])
            #expect(GaloisField.multiply(value, inverse) == 1)
        }
    }

    @Test("the generator of degree 7 has the coefficients the standard lists (as exponents of α)")
    func generatorDegree7() {
        // Annex A: x⁷ + α⁸⁷x⁶ + α²²⁹x⁵ + α¹⁴⁶x⁴ + α¹⁴⁹x³ + α²³⁸x² + α¹⁰²x + α²¹.
        let exponents = ReedSolomon(degree: 7).generator.map { GaloisField.logarithms[Int($0)] }
        #expect(exponents == [87, 229, 146, 149, 238, 102, 21])
    }

    @Test("the error correction codewords of the standard's 01234567 version 1-M example (Annex I)")
    func annexExample() {
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let expected: [UInt8] = [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]
        #expect(ReedSolomon(degree: 10).errorCorrection(for: data) == expected)
    }

    @Test(
        "every codeword block is divisible by the generator: all syndromes are zero",
        arguments: [7, 10, 16, 22, 26, 30]
    )
    func syndromes(degree: Int) {
        var generator = SystemRandomNumberGenerator()
        let encoder = ReedSolomon(degree: degree)
        for length in [1, 9, 43, 116] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let block = data + encoder.errorCorrection(for: data)
            for root in 0..<degree {
                #expect(Self.evaluate(block, at: GaloisField.power(root)) == 0)
            }
        }
    }

    @Test("changing one data codeword makes a syndrome non-zero")
    func corruptedBlock() {
        let data: [UInt8] = Array("swift-passkeys".utf8)
        var block = data + ReedSolomon(degree: 10).errorCorrection(for: data)
        block[3] ^= 0x40
        #expect((0..<10).contains { Self.evaluate(block, at: GaloisField.power($0)) != 0 })
    }

    /// The polynomial with `coefficients` (highest degree first) at `x`, by Horner's rule.
    static func evaluate(_ coefficients: [UInt8], at x: UInt8) -> UInt8 {
        coefficients.reduce(0) { GaloisField.multiply($0, x) ^ $1 }
    }
}
