import PasskeyTesting
import Testing

@testable import WebAuthn

/// `clientDataJSON` parsing (WebAuthn §5.8.1; §7.1 steps 5–6, §7.2 steps 9–10).
struct CollectedClientDataTests {
    static func parse(_ json: String) throws(WebAuthnError) -> CollectedClientData {
        try CollectedClientData(jsonBytes: Array(json.utf8))
    }

    @Test("§5.8.1: the members a browser sends are read as they are")
    func members() throws {
        var builder = ClientDataBuilder(type: "webauthn.get", challenge: [1, 2, 3, 250], origin: "https://example.com")
        builder.crossOrigin = true
        builder.topOrigin = "https://top.example"
        let data = try CollectedClientData(jsonBytes: builder.build())
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == "AQID-g")
        #expect(data.origin == "https://example.com")
        #expect(data.crossOrigin == true)
        #expect(data.topOrigin == "https://top.example")
        #expect(data.tokenBinding == nil)
        #expect(data.rawRepresentation == builder.build())
    }

    @Test("§5.8.1: optional members may be absent or null")
    func optionalMembers() throws {
        let data = try Self.parse(
            #"{"type":"webauthn.create","challenge":"AA","origin":"https://a.example","crossOrigin":null}"#
        )
        #expect(data.crossOrigin == nil)
        #expect(data.topOrigin == nil)
    }

    @Test(
        "§5.8.1: members of the wrong type, missing members and non-objects are MALFORMED_CLIENT_DATA",
        arguments: [
            #"{"challenge":"AA","origin":"https://a.example"}"#,
            #"{"type":"webauthn.get","origin":"https://a.example"}"#,
            #"{"type":"webauthn.get","challenge":"AA"}"#,
            #"{"type":1,"challenge":"AA","origin":"https://a.example"}"#,
            #"{"type":"webauthn.get","challenge":["AA"],"origin":"https://a.example"}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":null}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","crossOrigin":"true"}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","crossOrigin":1}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","topOrigin":true}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","tokenBinding":{"id":"AA"}}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","tokenBinding":{"status":1}}"#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","tokenBinding":7}"#,
            #"["webauthn.get","AA","https://a.example"]"#,
            #""webauthn.get""#,
            #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example""#,
            "",
            "null",
        ]
    )
    func malformed(_ json: String) {
        #expect(throws: code(.malformedClientData)) { try Self.parse(json) }
    }

    @Test("§5.8.1: clientDataJSON that is not UTF-8 is MALFORMED_CLIENT_DATA")
    func notUTF8() {
        let bytes =
            Array(#"{"type":"webauthn.get","challenge":"AA","origin":"https://a.ex"#.utf8) + [0xFF, 0xFE]
            + Array(#""}"#.utf8)
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(jsonBytes: bytes) }
    }

    @Test(
        "§5.8.1.2: unknown members are tolerated (clients may add any)",
        arguments: [
            #""other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex""#,
            #""future":{"nested":[1,2,{"x":null}]}"#,
            #""androidPackageName":"com.example.app""#,
            #""crossOriginish":"yes""#,
        ]
    )
    func unknownMembers(_ member: String) throws {
        var builder = ClientDataBuilder(type: "webauthn.create", challenge: [9, 9], origin: "https://example.com")
        builder.extraMembers = [member]
        let data = try CollectedClientData(jsonBytes: builder.build())
        #expect(data.type == "webauthn.create")
        #expect(data.origin == "https://example.com")
    }

    @Test(
        "A pre-standard tokenBinding string (such as \"unused\") is ignored",
        arguments: ["unused", "not-supported", ""]
    )
    func legacyTokenBindingString(_ value: String) throws {
        var builder = ClientDataBuilder(type: "webauthn.create", challenge: [9, 9], origin: "https://example.com")
        builder.extraMembers = ["\"tokenBinding\":\"\(value)\""]
        #expect(try CollectedClientData(jsonBytes: builder.build()).tokenBinding == nil)
    }

    @Test("Level 2 §5.8.1: a tokenBinding dictionary is read with its status and id")
    func tokenBindingDictionary() throws {
        var builder = ClientDataBuilder(type: "webauthn.create", challenge: [9, 9], origin: "https://example.com")
        builder.extraMembers = [#""tokenBinding":{"status":"present","id":"AQID"}"#]
        let binding = try #require(try CollectedClientData(jsonBytes: builder.build()).tokenBinding)
        #expect(binding.status == "present")
        #expect(binding.id == "AQID")
    }

    @Test("clientDataJSON over 16 KiB is INPUT_TOO_LARGE; at the limit it parses")
    func sizeLimit() throws {
        func json(size: Int) -> [UInt8] {
            let head = #"{"type":"webauthn.get","challenge":"AA","origin":"https://a.example","pad":""#
            let tail = #""}"#
            return Array((head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail).utf8)
        }
        let limit = CollectedClientData.maximumSize
        #expect(limit == 16 * 1024)
        #expect(json(size: limit).count == limit)
        _ = try CollectedClientData(jsonBytes: json(size: limit))
        #expect(throws: code(.inputTooLarge)) { try CollectedClientData(jsonBytes: json(size: limit + 1)) }
    }
}
