import Foundation
import Testing

@testable import QRCode

@Suite("SVG rendering")
struct SVGTests {
    static let code: QRCode = {
        do { return try QRCode(text: "http://localhost:8080/approve#pkh_svg") } catch { fatalError("\(error)") }
    }()

    @Test("the document: size, viewBox in modules with the quiet zone, crisp edges, white background, one path")
    func document() {
        let side = Self.code.size + 8
        let svg = Self.code.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("width=\"\(side * 8)\" height=\"\(side * 8)\""))
        #expect(svg.contains("viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.contains("<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"))
        #expect(svg.components(separatedBy: "<path").count == 2)
        #expect(!svg.contains("<title>"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test("module size and quiet zone are honoured; nonsensical values are clamped")
    func parameters() {
        let size = Self.code.size
        #expect(Self.code.svg(moduleSize: 3, quietZone: 2).contains("width=\"\((size + 4) * 3)\""))
        #expect(Self.code.svg(moduleSize: 3, quietZone: 2).contains("viewBox=\"0 0 \(size + 4) \(size + 4)\""))
        #expect(Self.code.svg(moduleSize: 0, quietZone: -1).contains("width=\"\(size)\" height=\"\(size)\""))
    }

    @Test("the path covers exactly the dark modules, offset by the quiet zone", arguments: [0, 4])
    func pathMatchesModules(quietZone: Int) throws {
        let svg = Self.code.svg(quietZone: quietZone)
        let start = try #require(svg.range(of: " d=\""))
        let data = svg[start.upperBound...].prefix { $0 != "\"" }
        var painted = Set<[Int]>()
        for command in data.split(separator: "z") {
            // Each command is "M<x> <y>h<length>v1h-<length>".
            let numbers = command.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            try #require(numbers.count == 5)
            for column in numbers[0]..<(numbers[0] + numbers[2]) {
                #expect(painted.insert([numbers[1] - quietZone, column - quietZone]).inserted)
            }
        }
        for row in 0..<Self.code.size {
            for column in 0..<Self.code.size {
                #expect(painted.contains([row, column]) == Self.code.isDark(row: row, column: column))
            }
        }
    }

    @Test("a title is emitted only when given, escaped on Unicode scalars")
    func title() {
        #expect(Self.code.svg(title: "Approve sign-in").contains("<title>Approve sign-in</title>"))
        let escaped = Self.code.svg(title: "a<b & \"c\" 'd'>")
        #expect(escaped.contains("<title>a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;</title>"))
        // "<" followed by a combining long solidus overlay is one Character, "≮", but still a "<" to XML.
        #expect(Self.code.svg(title: "x<\u{338}y").contains("<title>x&lt;\u{338}y</title>"))
        #expect(Self.code.svg(title: "bell\u{7}").contains("<title>bell\u{FFFD}</title>"))
        #expect(Self.code.svg(title: "é☃🔑").contains("<title>é☃🔑</title>"))
    }

    @Test("modules outside the symbol read as light")
    func outside() {
        #expect(!Self.code.isDark(row: -1, column: 0))
        #expect(!Self.code.isDark(row: 0, column: Self.code.size))
        #expect(Self.code.isDark(row: 0, column: 0))
    }
}
