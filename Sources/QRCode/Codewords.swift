/// The codeword sequence of a symbol: the payload in byte mode, padded to the data capacity (ISO/IEC 18004
/// §7.4), split into blocks with their Reed–Solomon codewords and interleaved (§7.6).
enum Codewords {
    /// The mode indicator of byte mode (Table 2).
    static let byteModeIndicator = 0b0100

    /// The length in bits of the character count indicator of byte mode (Table 3): 8 bits up to version 9,
    /// 16 bits from version 10.
    static func countIndicatorLength(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// How many payload bytes a symbol of `version` at `level` holds in byte mode.
    static func byteCapacity(version: Int, level: ErrorCorrection) -> Int {
        let dataBits = BlockStructure(version: version, level: level).dataCodewordCount * 8
        return (dataBits - 4 - countIndicatorLength(version: version)) / 8
    }

    /// The data codewords: mode indicator, count, payload, terminator, zero bits to a byte boundary, then the
    /// pad codewords 0xEC and 0x11 in turn up to the capacity. The payload must fit.
    static func data(_ payload: [UInt8], version: Int, level: ErrorCorrection) -> [UInt8] {
        let capacity = BlockStructure(version: version, level: level).dataCodewordCount
        var buffer = BitBuffer()
        buffer.append(byteModeIndicator, length: 4)
        buffer.append(payload.count, length: countIndicatorLength(version: version))
        for byte in payload { buffer.append(Int(byte), length: 8) }
        // The terminator is up to four zero bits: fewer when the capacity ends sooner.
        buffer.append(0, length: min(4, capacity * 8 - buffer.count))
        var codewords = buffer.bytes
        let padding: [UInt8] = [0xEC, 0x11]
        var next = 0
        while codewords.count < capacity {
            codewords.append(padding[next])
            next = 1 - next
        }
        return codewords
    }

    /// The final sequence of codewords: the data codewords split into blocks, each block's error correction
    /// codewords computed, then the data codewords interleaved block by block followed by the error
    /// correction codewords interleaved the same way.
    static func interleaved(data: [UInt8], structure: BlockStructure) -> [UInt8] {
        let encoder = ReedSolomon(degree: structure.ecCodewordsPerBlock)
        var dataBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<structure.blockCount {
            let end = start + structure.dataCount(ofBlock: index)
            dataBlocks.append(Array(data[start..<end]))
            start = end
        }
        let ecBlocks = dataBlocks.map(encoder.errorCorrection(for:))

        var result: [UInt8] = []
        result.reserveCapacity(structure.totalCodewordCount)
        for position in 0..<(structure.shortBlockDataCount + 1) {
            for block in dataBlocks where position < block.count { result.append(block[position]) }
        }
        for position in 0..<structure.ecCodewordsPerBlock {
            for block in ecBlocks { result.append(block[position]) }
        }
        return result
    }
}
