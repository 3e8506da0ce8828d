import QRCode
import Testing

@Suite("The example of docs/qrcode.md")
struct DocumentationExampleTests {
    @Test("the example compiles and behaves as its comments say")
    func example() throws {
        // Keep in step with docs/qrcode.md.
        let code = try QRCode(text: "http://localhost:8080/approve#pkh_…")  // level M by default
        let svg = code.svg()  // 8 px per module, the standard's 4-module quiet zone
        let labelled = code.svg(moduleSize: 4, quietZone: 4, title: "Scan to approve the sign-in")

        #expect(code.version == 3)
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.isDark(row: 0, column: 0))
        #expect(code.errorCorrection == .medium)
        #expect(svg.contains("width=\"\((code.size + 8) * 8)\""))
        #expect(labelled.contains("<title>Scan to approve the sign-in</title>"))
    }
}
