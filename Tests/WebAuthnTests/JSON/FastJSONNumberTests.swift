import Foundation
import Testing

@testable import WebAuthn

/// FastJSON's numbers: plain integers as `Int`, every other number of JSON's grammar as its text, read as a
/// `Double` the way JSONDecoder reads it; text outside the grammar ends the scan.
struct FastJSONNumberTests {
    struct Number: Decodable {
        let n: Double
    }

    static func scanned(_ number: String) -> FastJSON.Value? {
        FastJSON.withObject(Array(#"{"n":\#(number)}"#.utf8)) { json, members in json.member("n", in: members) }
    }

    static func double(_ number: String) -> Double? {
        FastJSON.withObject(Array(#"{"n":\#(number)}"#.utf8)) { json, members in
            json.member("n", in: members).flatMap(json.double)
        }
    }

    @Test(
        "Numbers of JSON's grammar are scanned; a Double reads as JSONDecoder reads it, or is left to it",
        arguments: [
            "0", "-0", "7", "-42", "1.5", "-0.25", "1e5", "1E+5", "1e-5", "-1.25e-3", "123456789012345678",
            "1234567890123456789", "12345678901234567890123", "1764140000.987654", "1e400", "-1e400", "1e-400",
            "2.4703282292062328e-324", "0e-999", "1.7976931348623157e308", "1.7976931348623159e308",
        ]
    )
    func valid(_ number: String) {
        #expect(Self.scanned(number) != nil)
        let foundation = try? JSONDecoder().decode(Number.self, from: Data(#"{"n":\#(number)}"#.utf8)).n
        if let fast = Self.double(number) {
            #expect(foundation == fast)
            #expect(fast.sign == foundation?.sign)
        } else {
            #expect(foundation == nil)
        }
    }

    @Test(
        "Text outside JSON's number grammar, or longer than the limit, ends the scan",
        arguments: [
            "01", "-01", "1.", ".5", "-", "1e", "1e+", "+1", "--1", "1.e5", "0x10", "1_000", "NaN", "Infinity",
            String(repeating: "1", count: 41), "1." + String(repeating: "0", count: 40),
        ]
    )
    func invalid(_ number: String) {
        #expect(Self.scanned(number) == nil)
    }

    @Test(
        "Numbers in members a response does not have keep it on the fast path; in its extensions they leave it to JSONDecoder"
    )
    func responses() throws {
        let base =
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"#
        let unknown = Array((base + #""clientExtensionResults":{},"extra":[1.5,-0,1e999]}"#).utf8)
        let fast = try #require(AuthenticationResponseJSON(fastJSON: unknown))
        #expect(fast == (try JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(unknown))))
        let extensionNumber = Array((base + #""clientExtensionResults":{"n":1.5}}"#).utf8)
        #expect(AuthenticationResponseJSON(fastJSON: extensionNumber) == nil)
        #expect(
            try AuthenticationResponseJSON(jsonBytes: extensionNumber).clientExtensionResults == ["n": .number(1.5)]
        )
    }
}
