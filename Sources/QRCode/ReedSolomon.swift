/// Reed–Solomon error correction codewords (ISO/IEC 18004 §7.5.2).
///
/// The generator polynomial of degree n is (x − α⁰)(x − α¹)…(x − αⁿ⁻¹); the error correction codewords of a
/// block are the remainder of the data polynomial times xⁿ divided by it.
struct ReedSolomon: Sendable {
    /// The generator's coefficients, highest degree first, without the leading 1.
    let generator: [UInt8]

    /// The encoder that appends `degree` error correction codewords.
    init(degree: Int) {
        // Start from the polynomial 1 and multiply by (x + αⁱ) for each i (in GF(2ⁿ), − is +).
        var coefficients: [UInt8] = [1]
        for i in 0..<degree {
            let root = GaloisField.power(i)
            var product = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                product[index] ^= coefficient
                product[index + 1] ^= GaloisField.multiply(coefficient, root)
            }
            coefficients = product
        }
        self.generator = Array(coefficients.dropFirst())
    }

    /// The error correction codewords of one block of data codewords.
    func errorCorrection(for data: [UInt8]) -> [UInt8] {
        // Polynomial long division, keeping only the running remainder.
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in generator.indices {
                remainder[index] ^= GaloisField.multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
