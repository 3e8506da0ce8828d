import Foundation
import Testing

@testable import WebAuthn

/// The Level 3 JSON types (§5.1) decode and encode back to the same JSON, unknown enum values and
/// extension members included (§2.1.1: clients and servers must not fail on values they do not know).
struct JSONRoundTripTests {
    /// A JSON value as parsed by Foundation, for comparing two texts as JSON (member order and number
    /// spelling do not matter; `true` and `1` differ).
    indirect enum ParsedJSON: Decodable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([ParsedJSON])
        case object([String: ParsedJSON])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([ParsedJSON].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: ParsedJSON].self))
            }
        }
    }

    static func expectSameJSON(_ lhs: [UInt8], _ rhs: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let left = try JSONDecoder().decode(ParsedJSON.self, from: Data(lhs))
        let right = try JSONDecoder().decode(ParsedJSON.self, from: Data(rhs))
        #expect(
            left == right,
            "\(String(decoding: lhs, as: UTF8.self))\n≠\n\(String(decoding: rhs, as: UTF8.self))",
            sourceLocation: sourceLocation
        )
    }

    @Test("The comparison itself tells values apart (true ≠ 1, member values matter, order does not)")
    func comparisonIsDiscriminating() throws {
        let parse = { (text: String) in try JSONDecoder().decode(ParsedJSON.self, from: Data(text.utf8)) }
        #expect(try parse(#"{"a":true}"#) != parse(#"{"a":1}"#))
        #expect(try parse(#"{"a":"x"}"#) != parse(#"{"a":"y"}"#))
        #expect(try parse(#"{"a":1,"b":[2]}"#) == parse(#"{"b":[2.0],"a":1}"#))
        #expect(try parse(#"{"a":null}"#) != parse(#"{}"#))
    }

    static let registrationResponse = #"""
        {"id":"AQIDBAUGBwgJCgsMDQ4PEA","rawId":"AQIDBAUGBwgJCgsMDQ4PEA","type":"public-key",
         "authenticatorAttachment":"cross-platform",
         "response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0","attestationObject":"o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YUA",
                     "authenticatorData":"SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2M","transports":["usb","nfc","future-transport"],
                     "publicKey":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE","publicKeyAlgorithm":-7},
         "clientExtensionResults":{"credProps":{"rk":true},"prf":{"enabled":true,"results":{"first":"AAEC"}},"future":[1,2.5,"x",null,false]}}
        """#

    static let authenticationResponse = #"""
        {"id":"AQIDBA","rawId":"AQIDBA","type":"public-key","authenticatorAttachment":"platform",
         "response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0","authenticatorData":"SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
                     "signature":"MEUCIQ","userHandle":"dXNlci0x"},
         "clientExtensionResults":{"largeBlob":{"blob":"AAAA"},"appid":false}}
        """#

    static let creationOptions = #"""
        {"rp":{"id":"example.com","name":"Example"},
         "user":{"id":"dXNlci0x","name":"alice@example.com","displayName":"Alice"},
         "challenge":"Y2hhbGxlbmdlLWNoYWxsZW5nZQ","pubKeyCredParams":[{"type":"public-key","alg":-8},{"type":"public-key","alg":-7},{"type":"public-key","alg":-257},{"type":"future-type","alg":-65536}],
         "timeout":300000,"excludeCredentials":[{"id":"AQID","type":"public-key","transports":["internal","hybrid","smart-card","ble"]}],
         "authenticatorSelection":{"authenticatorAttachment":"platform","residentKey":"future-requirement","requireResidentKey":false,"userVerification":"required"},
         "hints":["security-key","client-device","future-hint"],"attestation":"enterprise","attestationFormats":["packed","tpm","future-format"],
         "extensions":{"credProps":true,"prf":{"eval":{"first":"AAEC"}},"credentialProtectionPolicy":"userVerificationRequired","minPinLength":true}}
        """#

    static let requestOptions = #"""
        {"challenge":"Y2hhbGxlbmdl","timeout":60000,"rpId":"example.com",
         "allowCredentials":[{"id":"AQIDBA","type":"public-key","transports":["usb"]},{"id":"BQYHCA","type":"public-key"}],
         "userVerification":"future-uv","hints":["hybrid"],
         "extensions":{"appid":"https://example.com/appid.json","largeBlob":{"read":true},"getCredBlob":true}}
        """#

    @Test("§5.1 RegistrationResponseJSON: decode → encode gives the same JSON")
    func registration() throws {
        let value = try RegistrationResponseJSON(jsonBytes: Array(Self.registrationResponse.utf8))
        #expect(value.response.transports?.contains(AuthenticatorTransport(rawValue: "future-transport")) == true)
        #expect(value.response.publicKeyAlgorithm == .es256)
        try Self.expectSameJSON(WebAuthnJSON.encode(value), Array(Self.registrationResponse.utf8))
    }

    @Test("§5.1 AuthenticationResponseJSON: decode → encode gives the same JSON")
    func authentication() throws {
        let value = try AuthenticationResponseJSON(jsonBytes: Array(Self.authenticationResponse.utf8))
        #expect(value.response.userHandle?.bytes == Array("user-1".utf8))
        #expect(value.authenticatorAttachment == .platform)
        try Self.expectSameJSON(WebAuthnJSON.encode(value), Array(Self.authenticationResponse.utf8))
    }

    @Test("§5.1 PublicKeyCredentialCreationOptionsJSON: decode → encode gives the same JSON")
    func creationOptions() throws {
        let value = try WebAuthnJSON.decode(
            PublicKeyCredentialCreationOptionsJSON.self,
            from: Array(Self.creationOptions.utf8)
        )
        #expect(value.authenticatorSelection?.residentKey?.rawValue == "future-requirement")
        #expect(value.pubKeyCredParams.map(\.alg.rawValue) == [-8, -7, -257, -65536])
        #expect(value.attestation == .enterprise)
        try Self.expectSameJSON(WebAuthnJSON.encode(value), Array(Self.creationOptions.utf8))
    }

    @Test("§5.1 PublicKeyCredentialRequestOptionsJSON: decode → encode gives the same JSON")
    func requestOptions() throws {
        let value = try WebAuthnJSON.decode(
            PublicKeyCredentialRequestOptionsJSON.self,
            from: Array(Self.requestOptions.utf8)
        )
        #expect(value.userVerification?.rawValue == "future-uv")
        #expect(value.allowCredentials?.count == 2)
        try Self.expectSameJSON(WebAuthnJSON.encode(value), Array(Self.requestOptions.utf8))
    }

    @Test("Values built in Swift encode to the member names of §5.1 and decode back equal")
    func swiftValues() throws {
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: [1, 2, 3],
            rpId: "example.com",
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: [4, 5])],
            userVerification: .discouraged,
            extensions: ["devicePubKey": .object(["attestation": .string("none")])]
        )
        let json = WebAuthnJSON.encode(options)
        try Self.expectSameJSON(
            json,
            Array(
                #"""
                {"challenge":"AQID","rpId":"example.com","allowCredentials":[{"id":"BAU","type":"public-key"}],
                 "userVerification":"discouraged","extensions":{"devicePubKey":{"attestation":"none"}}}
                """#.utf8
            )
        )
        #expect(try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: json) == options)
    }
}
