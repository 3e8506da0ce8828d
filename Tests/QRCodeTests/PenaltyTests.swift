import Testing

@testable import QRCode

@Suite("Mask penalty rules N1–N4")
struct PenaltyTests {
    @Test("N1: a run of five scores 3, each module beyond adds 1; shorter runs score nothing")
    func runs() {
        #expect(Penalty.runs(in: [true, true, true, true, false]) == 0)
        #expect(Penalty.runs(in: [true, true, true, true, true, false]) == 3)
        #expect(Penalty.runs(in: [false] + [Bool](repeating: true, count: 7) + [false]) == 5)
        #expect(Penalty.runs(in: [Bool](repeating: false, count: 5) + [Bool](repeating: true, count: 6)) == 7)
    }

    @Test("N3: a 1:1:3:1:1 pattern with four light modules on a side scores 40 per side")
    func finderLike() {
        let core: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        #expect(Penalty.finderPatterns(in: light + core) == 40)
        #expect(Penalty.finderPatterns(in: core + light) == 40)
        #expect(Penalty.finderPatterns(in: light + core + light) == 80)
        #expect(Penalty.finderPatterns(in: [false, false, false] + core + [false, false, false]) == 0)
    }

    @Test("N2 and N4 on a whole symbol; the chosen mask scores no more than any other")
    func wholeSymbol() throws {
        let code = try QRCode(text: "http://localhost:8080/approve#pkh_0123456789")
        let chosen = Penalty.score(code.matrix)
        #expect(Penalty.blocks(in: code.matrix) > 0)
        #expect(Penalty.balance(of: code.matrix) >= 0)
        var unmasked = Matrix(version: code.version)
        let data = Codewords.data(
            Array("http://localhost:8080/approve#pkh_0123456789".utf8),
            version: code.version,
            level: .medium
        )
        unmasked.placeData(
            Codewords.interleaved(data: data, structure: BlockStructure(version: code.version, level: .medium))
        )
        for mask in MaskPattern.allCases {
            var candidate = unmasked
            candidate.apply(mask)
            candidate.drawFormatInformation(FormatInformation.bits(level: .medium, mask: mask))
            #expect(Penalty.score(candidate) >= chosen)
            if mask.rawValue == code.maskPattern { #expect(candidate == code.matrix) }
        }
    }
}
