/// Arithmetic in GF(256) as QR codes define it (ISO/IEC 18004 §7.5.2): bytes are polynomials over GF(2)
/// reduced modulo the primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), and α = 2 generates the
/// multiplicative group.
enum GaloisField {
    /// `exponents[i]` is αⁱ for i in 0..<255, repeated once more so that sums of two logarithms index it directly.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value > 0xFF { value ^= 0x11D }
        }
        return table
    }()

    /// `logarithms[x]` is the i with αⁱ = x, for x ≠ 0 (entry 0 is unused).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = power }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// αⁿ for any n ≥ 0.
    static func power(_ n: Int) -> UInt8 { exponents[n % 255] }
}
