import Foundation
import Testing
import WebAuthn

@testable import PasskeyServer

/// JSONWriter writes what JSONEncoder writes with the API's settings, byte for byte, or declines.
struct JSONWriterTests {
    struct Text: Encodable, JSONWritable {
        let s: String
        func write(to writer: inout JSONWriter) { writer.object { $0.member("s", s) } }
    }

    struct Moment: Encodable, JSONWritable {
        let d: Date
        func write(to writer: inout JSONWriter) { writer.object { $0.member("d", d) } }
    }

    struct Numbers: Encodable, JSONWritable {
        let i: Int
        let v: JSONValue
        func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.member("i", i)
                writer.member("v", v)
            }
        }
    }

    static func foundation(_ value: some Encodable, dates: JSONWriter.DateFormat = .iso8601) throws -> String {
        let encoder = JSONEncoder()
        switch dates {
        case .iso8601:
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        case .secondsSince1970:
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func written(_ value: some JSONWritable, dates: JSONWriter.DateFormat = .iso8601) -> String? {
        JSONWriter.write(value, dates: dates).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("Every ASCII character, escaped or not, as JSONEncoder writes it")
    func asciiEscapes() throws {
        for byte in UInt8(0)...0x7F {
            let text = Text(s: "a\(Character(UnicodeScalar(byte)))b")
            #expect(Self.written(text) == (try Self.foundation(text)), "byte \(byte)")
        }
    }

    @Test(
        "Unicode, slashes and quotes as JSONEncoder writes them",
        arguments: [
            "", "plain", "a/b//c", #"say "hi" \ bye"#, "é à ß", "😀 👩‍👩‍👧", "\u{2028}\u{2029}\u{FEFF}",
            "\u{7F}\u{80}\u{FFFF}",
            "line\nbreak\r\n\ttab", "\u{0}\u{1F}", String(repeating: "x/\"", count: 40),
        ]
    )
    func strings(_ value: String) throws {
        #expect(Self.written(Text(s: value)) == (try Self.foundation(Text(s: value))))
    }

    @Test(
        "Integers and doubles as JSONEncoder writes them",
        arguments: [
            (0, 0.0), (-1, -0.0), (Int.max, 1e16), (Int.min, 1e-7), (42, 0.1), (-257, 1_764_140_000.123456),
            (1_000_000, 123_456_789_012_345_678.0), (7, -2.5e-300), (8, Double.greatestFiniteMagnitude),
            (9, Double.leastNonzeroMagnitude),
        ]
    )
    func numbers(_ integer: Int, _ double: Double) throws {
        let value = Numbers(i: integer, v: .number(double))
        #expect(Self.written(value) == (try Self.foundation(value)))
    }

    @Test(
        "Non-finite numbers are left to JSONEncoder (which refuses them)",
        arguments: [Double.nan, .infinity, -.infinity]
    )
    func nonFinite(_ double: Double) {
        #expect(JSONWriter.write(Numbers(i: 0, v: .number(double)), dates: .iso8601) == nil)
    }

    @Test("Open-ended JSON (extensions): nested values, keys in JSONEncoder's order (UTF-8 bytes)")
    func jsonValues() throws {
        let value = Numbers(
            i: 1,
            v: .object([
                "b": .array([.null, .bool(true), .bool(false), .string("x"), .number(1.5), .object([:]), .array([])]),
                "B": .string("upper"), "a10": .number(10), "a9": .number(9), "é": .null,
                "z": .object(["y": .null, "x": .number(-3)]),
                "": .string("empty key"), "_": .bool(true),
            ])
        )
        #expect(Self.written(value) == (try Self.foundation(value)))
    }

    @Test("ISO 8601 dates for every day from 1970 to 2200 and the edges of the supported range")
    func iso8601Dates() throws {
        var seconds: [TimeInterval] = [0, 0.999, 59.5, 951_782_400, 951_868_799.9, 4_107_542_400, 253_402_300_799.999]
        // Each day at a different time of day, through leap years and the 2100 non-leap year.
        for day in stride(from: 0, to: 84_000, by: 1) {
            seconds.append(Double(day) * 86_400 + Double(day % 86_400) + 0.25)
        }
        for value in seconds {
            let moment = Moment(d: Date(timeIntervalSince1970: value))
            let expected = try Self.foundation(moment)
            guard Self.written(moment) == expected else {
                Issue.record("\(value): \(Self.written(moment) ?? "nil") instead of \(expected)")
                return
            }
        }
    }

    @Test(
        "Dates JSONWriter does not write exactly are left to JSONEncoder",
        arguments: [-0.5, -86_400, 253_402_300_800, 1e15]
    )
    func datesOutOfRange(_ value: TimeInterval) {
        #expect(JSONWriter.write(Moment(d: Date(timeIntervalSince1970: value)), dates: .iso8601) == nil)
    }

    @Test("Seconds since 1970 (flow payloads) as JSONEncoder writes them")
    func secondsSince1970() throws {
        for value in [0, 1_764_140_000, 1_764_140_000.123456, 1e-5, -1.5, 4_102_444_800.000_001, 1e16] {
            let moment = Moment(d: Date(timeIntervalSince1970: value))
            #expect(
                Self.written(moment, dates: .secondsSince1970)
                    == (try Self.foundation(moment, dates: .secondsSince1970))
            )
        }
    }
}
