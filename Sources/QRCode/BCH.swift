/// Remainders of polynomials over GF(2), for the BCH codes of the format and version information.
enum BCH {
    /// The remainder of `value` divided by `generator`, both polynomials over GF(2) written as bits.
    static func remainder(of value: Int, generator: Int) -> Int {
        let degree = Int.bitWidth - 1 - generator.leadingZeroBitCount
        var remainder = value
        while remainder != 0, Int.bitWidth - 1 - remainder.leadingZeroBitCount >= degree {
            let shift = (Int.bitWidth - 1 - remainder.leadingZeroBitCount) - degree
            remainder ^= generator << shift
        }
        return remainder
    }
}
