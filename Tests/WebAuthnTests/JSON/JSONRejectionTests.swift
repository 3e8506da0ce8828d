import Testing

@testable import WebAuthn

/// JSON that does not have the Level 3 shape is MALFORMED_JSON; oversized JSON is INPUT_TOO_LARGE.
struct JSONRejectionTests {
    static let validAuthentication =
        #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{}}"#

    @Test("The valid baseline decodes (so each rejection below is caused by its change)")
    func baseline() throws {
        _ = try AuthenticationResponseJSON(jsonBytes: Array(Self.validAuthentication.utf8))
    }

    @Test(
        "§5.1: malformed AuthenticationResponseJSON is MALFORMED_JSON",
        arguments: [
            "", "{", "[]", "null", "\"x\"", #"{"id":"AQID"}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#,
            #"{"id":"AQID","rawId":"AQ+D","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":7,"response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30=x","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA","userHandle":5},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":[],"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":[]}"#,
            #"{"id":1,"rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{}}"#,
        ]
    )
    func malformedAuthentication(_ json: String) {
        #expect(throws: code(.malformedJSON)) { try AuthenticationResponseJSON(jsonBytes: Array(json.utf8)) }
    }

    @Test(
        "§5.1: malformed RegistrationResponseJSON is MALFORMED_JSON",
        arguments: [
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","attestationObject":"oA","publicKeyAlgorithm":"ES256"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","attestationObject":"oA","transports":"usb"},"clientExtensionResults":{}}"#,
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","attestationObject":"o A"},"clientExtensionResults":{}}"#,
        ]
    )
    func malformedRegistration(_ json: String) {
        #expect(throws: code(.malformedJSON)) { try RegistrationResponseJSON(jsonBytes: Array(json.utf8)) }
    }

    @Test(
        "§5.1: malformed options are MALFORMED_JSON",
        arguments: [
            #"{"challenge":"AQID","timeout":-1}"#, #"{"challenge":"AQID","timeout":4294967296}"#,
            #"{"challenge":"AQID","allowCredentials":[{"id":"AQID"}]}"#,
            #"{"challenge":"AQID","userVerification":true}"#, #"{"timeout":1}"#,
            #"{"challenge":"AQID","extensions":[]}"#,
        ]
    )
    func malformedRequestOptions(_ json: String) {
        #expect(throws: code(.malformedJSON)) {
            try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(json.utf8))
        }
    }

    @Test("JSON over 256 KiB is INPUT_TOO_LARGE, even when well-formed")
    func oversize() throws {
        let limit = WebAuthnJSON.maximumSize
        #expect(limit == 256 * 1024)
        let head =
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{"pad":""#
        let tail = #""}}"#
        func json(_ size: Int) -> [UInt8] {
            Array((head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail).utf8)
        }
        _ = try AuthenticationResponseJSON(jsonBytes: json(limit))
        #expect(throws: code(.inputTooLarge)) { try AuthenticationResponseJSON(jsonBytes: json(limit + 1)) }
        #expect(throws: code(.inputTooLarge)) { try RegistrationResponseJSON(jsonBytes: json(limit + 1)) }
    }
}
