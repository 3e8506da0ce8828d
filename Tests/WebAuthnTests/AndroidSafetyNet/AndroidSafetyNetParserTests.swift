import CorpusTestSupport
import Foundation
import Testing

@testable import WebAuthn

/// The SafetyNet JWS and payload parsers on their own: strict shape, bounds, and no crash on any input.
struct AndroidSafetyNetParserTests {
    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let mutate: @Sendable (String) -> String
        var testDescription: String { name }
    }

    static func parts(_ jws: String) -> [String] {
        jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
    static func encode(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }
    static func replacingHeader(_ json: String) -> @Sendable (String) -> String {
        { jws in ([encode(json)] + parts(jws).dropFirst()).joined(separator: ".") }
    }

    static let malformedResponses: [Malformed] = [
        Malformed(name: "empty") { _ in "" },
        Malformed(name: "two parts") { parts($0).prefix(2).joined(separator: ".") },
        Malformed(name: "four parts") { $0 + ".AAAA" },
        Malformed(name: "empty header") { "." + parts($0).dropFirst().joined(separator: ".") },
        Malformed(name: "empty payload") { jws in
            let p = parts(jws)
            return p[0] + ".." + p[2]
        },
        Malformed(name: "empty signature") { jws in parts(jws).prefix(2).joined(separator: ".") + "." },
        Malformed(name: "character outside base64url") { jws in
            let p = parts(jws)
            return [p[0], "*" + p[1], p[2]].joined(separator: ".")
        },
        Malformed(name: "standard base64 character") { jws in
            let p = parts(jws)
            return [p[0], p[1] + "+/", p[2]].joined(separator: ".")
        },
        Malformed(name: "padding") { jws in
            let p = parts(jws)
            return [p[0], p[1], p[2] + "=="].joined(separator: ".")
        },
        Malformed(name: "white space") { jws in
            let p = parts(jws)
            return [p[0], p[1], " " + p[2]].joined(separator: ".")
        },
        Malformed(name: "non-ASCII") { jws in
            let p = parts(jws)
            return [p[0] + "é", p[1], p[2]].joined(separator: ".")
        },
        Malformed(name: "impossible base64 length") { jws in
            let p = parts(jws)
            return ["A", p[1], p[2]].joined(separator: ".")
        },
        Malformed(name: "oversized") { jws in
            let p = parts(jws)
            return [p[0], p[1] + String(repeating: "A", count: 40_000), p[2]].joined(separator: ".")
        },
        Malformed(name: "header not JSON", mutate: replacingHeader("alg=ES256")),
        Malformed(name: "header is an array", mutate: replacingHeader("[1]")),
        Malformed(name: "header without x5c", mutate: replacingHeader(#"{"alg":"ES256"}"#)),
        Malformed(name: "header without alg", mutate: replacingHeader(#"{"x5c":["MAA="]}"#)),
        Malformed(name: "alg not a string", mutate: replacingHeader(#"{"alg":-7,"x5c":["MAA="]}"#)),
        Malformed(name: "x5c empty", mutate: replacingHeader(#"{"alg":"ES256","x5c":[]}"#)),
        Malformed(name: "x5c not an array", mutate: replacingHeader(#"{"alg":"ES256","x5c":"MAA="}"#)),
        Malformed(name: "x5c entry not a string", mutate: replacingHeader(#"{"alg":"ES256","x5c":[48]}"#)),
        Malformed(name: "x5c entry not base64", mutate: replacingHeader(#"{"alg":"ES256","x5c":["*not base64*"]}"#)),
        Malformed(name: "x5c entry base64url", mutate: replacingHeader(#"{"alg":"ES256","x5c":["MA-_"]}"#)),
        Malformed(name: "x5c entry empty", mutate: replacingHeader(#"{"alg":"ES256","x5c":[""]}"#)),
        Malformed(
            name: "certificate URL (x5u)",
            mutate: replacingHeader(#"{"alg":"ES256","x5c":["MAA="],"x5u":"https://example.com/chain.pem"}"#)
        ),
        Malformed(
            name: "too many certificates",
            mutate: replacingHeader(
                #"{"alg":"ES256","x5c":[\#(Array(repeating: #""MAA=""#, count: 9).joined(separator: ","))]}"#
            )
        ),
    ]

    @Test(arguments: malformedResponses)
    func rejects(_ malformed: Malformed) throws {
        let jws = try AndroidSafetyNetFixture().build().jws
        let error = AndroidTestFixtures.error {
            _ = try AndroidSafetyNetAttestation.responseJWS(Array(malformed.mutate(jws).utf8))
        }
        #expect(error?.code == .attestationInvalid)
    }

    @Test func parsesCompactSerialization() throws {
        let jws = try AndroidSafetyNetFixture().build().jws
        let parsed = try AndroidSafetyNetAttestation.responseJWS(Array(jws.utf8))
        let parts = Self.parts(jws)
        #expect(parsed.header.algorithm == "ES256")
        #expect(parsed.header.certificates.count == 1)
        #expect(parsed.signingInput == Array((parts[0] + "." + parts[1]).utf8))
        #expect(parsed.signature.count == 64)
        let payload = try SafetyNetResponse(jsonBytes: parsed.payload)
        #expect(payload.timestamp == AndroidTestFixtures.now)
        #expect(payload.ctsProfileMatch && payload.basicIntegrity)
    }

    @Test(arguments: [
        "", "null", "[]", #"{"timestampMs":1}"#, #"{"nonce":"x"}"#, #"{"nonce":1,"timestampMs":1}"#,
        #"{"nonce":"x","timestampMs":"1"}"#, #"{"nonce":"x","timestampMs":1.5}"#, #"{"nonce":"x","timestampMs":1e30}"#,
        #"{"nonce":"x","timestampMs":1,"ctsProfileMatch":"true"}"#, #"{"nonce":"x","timestampMs":1"#,
    ])
    func rejectsMalformedPayload(_ json: String) {
        let error = AndroidTestFixtures.error { _ = try SafetyNetResponse(jsonBytes: Array(json.utf8)) }
        #expect(error?.code == .attestationInvalid)
    }

    @Test func readsMinimalPayload() throws {
        let payload = try SafetyNetResponse(
            jsonBytes: Array(#"{"nonce":"bm9uY2U=","timestampMs":1565424262773,"extra":[1,{"a":null}]}"#.utf8)
        )
        #expect(payload.nonce == "bm9uY2U=")
        #expect(payload.timestampMs == 1_565_424_262_773)
        #expect(!payload.ctsProfileMatch && !payload.basicIntegrity)
        #expect(payload.apkPackageName == nil)
    }

    /// Every prefix of real and synthetic responses, and random bytes and mutations, either parse or throw
    /// a WebAuthnError; nothing traps.
    @Test func survivesTruncatedAndRandomInput() throws {
        var samples = [Array(try AndroidSafetyNetFixture().build().jws.utf8)]
        if ConformanceCorpus.shouldRun {
            for number in ["048", "080"] {
                let statement = try AndroidConformanceCorpus.load(number).statement()
                samples.append(try #require(statement.fields[text: "response"]?.bytesValue))
            }
        }
        func check(_ bytes: [UInt8]) {
            do {
                let jws = try AndroidSafetyNetAttestation.responseJWS(bytes)
                _ = try? SafetyNetResponse(jsonBytes: jws.payload)
            } catch {
                #expect(error.code == .attestationInvalid)
            }
        }
        var generator = SplitMix64(seed: 0x5AFE)
        for sample in samples {
            for end in stride(from: 0, to: sample.count, by: 7) { check(Array(sample[..<end])) }
            for _ in 0..<300 {
                var mutated = sample
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
                check(mutated)
            }
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/".utf8)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...200, using: &generator)
            check((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
            check((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }
}
