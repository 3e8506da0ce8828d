import Foundation
import Testing

@testable import WebAuthn

/// Unpadded base64url (RFC 4648 §5), with the strictness WebAuthn's JSON needs.
struct Base64URLTests {
    static let rfc4648Vectors: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("RFC 4648 §10 test vectors encode without padding", arguments: rfc4648Vectors)
    func encode(_ plain: String, _ encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
    }

    @Test("RFC 4648 §10 test vectors decode", arguments: rfc4648Vectors)
    func decode(_ plain: String, _ encoded: String) throws {
        #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test(
        "RFC 4648 §5: the URL-safe alphabet uses '-' and '_' for 62 and 63",
        arguments: [
            ([0xFB, 0xEF, 0xBE] as [UInt8], "----"), ([0xFF, 0xFF, 0xFF], "____"), ([0xFB, 0xFF], "-_8"),
            ([0x03, 0xEF, 0xFF], "A-__"),
        ]
    )
    func urlSafeAlphabet(_ bytes: [UInt8], _ encoded: String) throws {
        #expect(Base64URL.encode(bytes) == encoded)
        #expect(try Base64URL.decode(encoded) == bytes)
    }

    @Test(
        "Correct '=' padding is tolerated",
        arguments: [("Zg==", "f"), ("Zm8=", "fo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba")]
    )
    func paddingTolerated(_ padded: String, _ plain: String) throws {
        #expect(try Base64URL.decode(padded) == Array(plain.utf8))
    }

    @Test(
        "Rejected: the standard alphabet, white space, wrong padding, impossible length, non-zero trailing bits",
        arguments: [
            // Characters outside the alphabet.
            "Zm9v+w", "Zm9v/w", "+", "/", "Zm9v YmFy", " Zg", "Zg ", "Zg\n", "Zm9v\tYg",
            "Zg=", "Zg===", "Z===", "Zm9vYmFy====", "=", "==", "Zg=A", "Zm8==",  // misplaced or excess padding
            "Z", "Zm9vY", "Zm9vYmFyZ",  // a length of 1 mod 4 cannot encode whole bytes
            "Zh", "Zm9", "Zm9vYh", "Zm9vYmF",  // non-zero bits after the last byte: not canonical
            "Zm9v\u{00E9}", "Zm9v\0",  // non-ASCII and NUL
        ]
    )
    func rejected(_ text: String) {
        #expect(throws: code(.invalidBase64URL)) { try Base64URL.decode(text) }
    }

    @Test("Every length from 0 to 64 round-trips", arguments: 0...64)
    func roundTrip(_ length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let encoded = Base64URL.encode(bytes)
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        #expect(encoded.count == (length * 4 + 2) / 3)
        #expect(try Base64URL.decode(encoded) == bytes)
    }

    @Test("Every length from 0 to 200 encodes as Foundation's base64 with the URL alphabet and no padding")
    func encodeMatchesFoundation() {
        var state: UInt64 = 15
        for length in 0...200 {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let reference = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == reference, "length \(length)")
            #expect(Base64URL.encode(bytes[...]) == reference, "length \(length), a slice")
            #expect(Base64URL.encode(AnyCollection(bytes)) == reference, "length \(length), not contiguous")
        }
    }

    @Test("Base64URLBytes decodes from and encodes to a JSON string")
    func base64URLBytesCodable() throws {
        let value = try WebAuthnJSON.decode([Base64URLBytes].self, from: Array(#"["Zm9vYmE","-_8"]"#.utf8))
        #expect(value.map(\.bytes) == [Array("fooba".utf8), [0xFB, 0xFF]])
        #expect(WebAuthnJSON.encode(value) == Array(#"["Zm9vYmE","-_8"]"#.utf8))
        #expect(throws: code(.malformedJSON)) {
            try WebAuthnJSON.decode([Base64URLBytes].self, from: Array(#"["Zm9v+w"]"#.utf8))
        }
        #expect(throws: code(.invalidBase64URL)) { try Base64URLBytes(base64URL: "a+b") }
    }
}
