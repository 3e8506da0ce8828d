import Foundation
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// The hot routes' bodies and the flows' payloads without JSONDecoder and JSONEncoder: the same bytes out, the same
/// values in, and everything else left to Foundation's coders (so their results and errors are unchanged).
struct BodyCodecTests {
    static let time = Date(timeIntervalSince1970: 1_764_140_000.987654)
    static let transaction = Transaction(text: "Pay 10 € to ACME/Ltd \"now\"\nthanks 😀", digest: "3q2-7w")

    static func foundationDecode<T: Decodable>(_ type: T.Type, _ json: [UInt8], payload: Bool = false) -> T? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = payload ? .secondsSince1970 : .iso8601
        return try? decoder.decode(type, from: Data(json))
    }

    static func fast<T: FastJSONDecodable>(_ type: T.Type, _ json: [UInt8]) -> T? {
        json.withUnsafeBufferPointer { T(fastJSON: $0) }
    }

    /// Whatever the fast path accepts, JSONDecoder accepts as the same value.
    static func expectSameDecoding<T: FastJSONDecodable & Decodable>(
        _ type: T.Type,
        _ json: [UInt8],
        payload: Bool = false,
        fastPath: Bool? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fast = Self.fast(type, json)
        if let fastPath { #expect((fast != nil) == fastPath, sourceLocation: sourceLocation) }
        guard let fast else { return }
        let foundation = Self.foundationDecode(type, json, payload: payload)
        #expect(foundation != nil, "JSONDecoder refuses what the fast path took", sourceLocation: sourceLocation)
        #expect(
            String(describing: fast) == foundation.map { String(describing: $0) },
            sourceLocation: sourceLocation
        )
    }

    // MARK: Responses

    static func expectSameEncoding(
        _ value: some Encodable & JSONWritable,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let written = JSONWriter.write(value, dates: .iso8601).map { String(decoding: $0, as: UTF8.self) }
        #expect(written == (try JSONWriterTests.foundation(value)), sourceLocation: sourceLocation)
    }

    @Test("Sign-in responses: the bytes JSONEncoder writes")
    func signInResponses() throws {
        try Self.expectSameEncoding(
            CreateAuthenticationResponse(
                biometricPasskeySessionId: "auth_1",
                clientToken: "pkc_x",
                expiresAt: Self.time,
                transaction: Self.transaction,
                identityVerification: "required"
            )
        )
        try Self.expectSameEncoding(
            CreateAuthenticationResponse(
                biometricPasskeySessionId: "auth_1",
                clientToken: "pkc_x",
                expiresAt: Self.time,
                transaction: nil,
                identityVerification: nil
            )
        )
        try Self.expectSameEncoding(CompleteAuthenticationResponse(resultToken: "pkr_1", expiresAt: Self.time))
        try Self.expectSameEncoding(CompleteAuthenticationResponse(resultToken: nil, expiresAt: Self.time))
        for result in Self.results { try Self.expectSameEncoding(result) }
        try Self.expectSameEncoding(
            PublicKeyOptionsResponse(
                publicKey: PublicKeyCredentialRequestOptionsJSON(
                    challenge: Base64URLBytes(Array(0...63)),
                    timeout: 300_000,
                    rpId: "example.com",
                    allowCredentials: [
                        PublicKeyCredentialDescriptorJSON(id: [1, 2, 3], transports: ["internal", "hybrid"]),
                        PublicKeyCredentialDescriptorJSON(id: [255]),
                    ],
                    userVerification: .required,
                    hints: ["client-device"],
                    extensions: ["largeBlob": .object(["read": .bool(true)]), "appid": .string("https://a.example/x")]
                ),
                transaction: Self.transaction
            )
        )
        try Self.expectSameEncoding(
            PublicKeyOptionsResponse(publicKey: PublicKeyCredentialRequestOptionsJSON(challenge: [9, 9]))
        )
    }

    @Test("Registration responses: the bytes JSONEncoder writes")
    func registrationResponses() throws {
        try Self.expectSameEncoding(
            CreateRegistrationResponse(
                registrationAttemptId: "reg_1",
                clientToken: "pkc_y",
                expiresAt: Self.time,
                workflowRunId: "run_1",
                idvToken: "idv_1"
            )
        )
        try Self.expectSameEncoding(
            CreateRegistrationResponse(
                registrationAttemptId: "reg_1",
                clientToken: "pkc_y",
                expiresAt: Self.time,
                workflowRunId: nil,
                idvToken: nil
            )
        )
        for (lastUsedAt, run) in [(Self.time, "run_2"), (nil, nil)] as [(Date?, String?)] {
            let row = CredentialRecordRow(
                id: [1, 2, 250],
                userID: "alice",
                publicKey: [4],
                algorithm: -7,
                signCount: 3,
                aaguid: "adce0002-35bc-c60a-648b-0b25f1f05503",
                attestationFormat: "none",
                attestationType: "none",
                attestationTrusted: false,
                transports: ["internal", "hybrid"],
                backupEligible: true,
                backupState: false,
                userVerified: true,
                name: "Alice's \"phone\" / 📱",
                nameKey: "alice's phone",
                status: .active,
                createdAt: Self.time,
                lastUsedAt: lastUsedAt,
                workflowRunID: run
            )
            try Self.expectSameEncoding(CredentialResponse(row, metadata: nil))
            for credential in [CredentialResponse(row, metadata: nil), nil] {
                try Self.expectSameEncoding(
                    RegistrationStatusResponse(
                        registrationAttemptId: "reg_2",
                        userId: "alice",
                        status: "pending_finalize",
                        finalize: "explicit",
                        createdAt: Self.time,
                        expiresAt: Self.time.addingTimeInterval(300),
                        credential: credential
                    )
                )
            }
        }
        let user = PublicKeyCredentialUserEntityJSON(id: [7, 7, 7], name: "alice@example.com", displayName: "Alice Ä")
        try Self.expectSameEncoding(
            PublicKeyOptionsResponse(
                publicKey: PublicKeyCredentialCreationOptionsJSON(
                    rp: PublicKeyCredentialRpEntity(id: "example.com", name: "Example"),
                    user: user,
                    challenge: Base64URLBytes(Array(0...31)),
                    pubKeyCredParams: [.init(alg: .es256), .init(alg: .rs256), .init(alg: .ed25519)],
                    timeout: 60_000,
                    excludeCredentials: [PublicKeyCredentialDescriptorJSON(id: [1], transports: ["usb"])],
                    authenticatorSelection: AuthenticatorSelectionCriteria(
                        authenticatorAttachment: .platform,
                        residentKey: .required,
                        requireResidentKey: true,
                        userVerification: .preferred
                    ),
                    hints: ["security-key"],
                    attestation: .direct,
                    attestationFormats: ["packed", "tpm"],
                    extensions: ["credProps": .bool(true), "minPinLength": .number(4)]
                )
            )
        )
        try Self.expectSameEncoding(
            PublicKeyOptionsResponse(
                publicKey: PublicKeyCredentialCreationOptionsJSON(
                    rp: PublicKeyCredentialRpEntity(id: nil, name: "Example"),
                    user: user,
                    challenge: [1],
                    pubKeyCredParams: [],
                    authenticatorSelection: AuthenticatorSelectionCriteria()
                )
            )
        )
    }

    @Test("JSONBody and the flows find the fast paths of every hot route's body and payload")
    func dispatch() {
        let decodable: [any Decodable.Type] = [
            CreateAuthenticationRequest.self, CompleteAuthenticationRequest.self, RedeemRequest.self,
            CreateRegistrationRequest.self, CompleteRegistrationRequest.self, AuthenticationState.self,
            RegistrationState.self,
        ]
        for type in decodable { #expect(type is any FastJSONDecodable.Type, "\(type)") }
        let user = PublicKeyCredentialUserEntityJSON(id: [1], name: "a", displayName: "A")
        let creation = PublicKeyCredentialCreationOptionsJSON(
            rp: .init(id: nil, name: "R"),
            user: user,
            challenge: [1],
            pubKeyCredParams: []
        )
        let encodable: [any Encodable] = [
            PublicKeyOptionsResponse(publicKey: PublicKeyCredentialRequestOptionsJSON(challenge: [1])),
            PublicKeyOptionsResponse(publicKey: creation), Self.results[0], Self.states[0], Self.registrationStates[0],
            CompleteAuthenticationResponse(resultToken: nil, expiresAt: Self.time),
        ]
        for value in encodable { #expect(value is any JSONWritable, "\(type(of: value))") }
    }

    // MARK: Requests

    static func credentialBody(_ credential: some Encodable, extra: String = "") throws -> [UInt8] {
        let credentialJSON = String(decoding: try JSONEncoder().encode(credential), as: UTF8.self)
        return Array(#"{"credential": \#(credentialJSON)\#(extra)}"#.utf8)
    }

    static func authenticationResponse() -> AuthenticationResponseJSON {
        var authenticator = TestAuthenticator()
        return authenticator.authenticationResponse(
            challenge: Array(0...31),
            origin: "https://example.com",
            rpID: "example.com"
        )
    }

    @Test("Request bodies in the fast path's subset decode on it, to what JSONDecoder gives")
    func requests() throws {
        for json in [
            #"{}"#, #"{"userId": "alice"}"#, #"{"userId":null,"mode":"stepUp","action":"payment.approve"}"#,
            #"{"userId": "alice", "mode": "stepUp", "transaction": {"text": "Pay 10 €"}, "identityVerification": "required", "workflowRunId": "run_1", "unknown": [1, {"x": 2.5}]}"#,
            #" {"transaction": null} "#,
        ] {
            Self.expectSameDecoding(CreateAuthenticationRequest.self, Array(json.utf8), fastPath: true)
        }
        // Numbers in members the type does not have are not read, by JSONDecoder either.
        for json in [
            #"{"resultToken":"pkr_abc"}"#, #"{"resultToken": "a", "n": [1e999, -0, 1.5e-999, 12345678901234567890]}"#,
        ] {
            Self.expectSameDecoding(RedeemRequest.self, Array(json.utf8), fastPath: true)
        }
        for json in [
            #"{"userId": "alice", "userName": "alice@example.com"}"#,
            #"{"userId": "alice", "userName": "Ålice", "displayName": "Å", "identityVerification": "none", "credentialName": "Phone", "finalize": "explicit", "workflowRunId": "run_9"}"#,
        ] {
            Self.expectSameDecoding(CreateRegistrationRequest.self, Array(json.utf8), fastPath: true)
        }
        Self.expectSameDecoding(
            CompleteAuthenticationRequest.self,
            try Self.credentialBody(Self.authenticationResponse()),
            fastPath: true
        )
        let registration = try TestAuthenticator().registrationResponse(
            challenge: Array(0...31),
            origin: "https://example.com",
            rpID: "example.com"
        )
        Self.expectSameDecoding(CompleteRegistrationRequest.self, try Self.credentialBody(registration), fastPath: true)
        Self.expectSameDecoding(
            CompleteRegistrationRequest.self,
            try Self.credentialBody(registration, extra: #", "name": "Work key""#),
            fastPath: true
        )
    }

    @Test(
        "Bodies outside the subset or of the wrong shape are left to JSONDecoder (its errors stay the API's)",
        arguments: [
            "", " ", "{", "[]", "null", "\"x\"", "{}}", "{} x", #"{"resultToken": 1}"#, #"{"resultToken": null}"#,
            #"{"resultToken": "a\/b"}"#, #"{"resultToken": "\u0041"}"#, #"{"resultToken": "a", "resultToken": "b"}"#,
            #"{"resultToken": "a",}"#, #"{"resultToken" "a"}"#, #"{'resultToken': 'a'}"#,
            "\u{FEFF}{\"resultToken\": \"a\"}",
            "{\"resultToken\": \"tab\tinside\"}", #"{"resultToken": "a", "n": 01}"#,
            #"{"resultToken": "a", "n": 1.}"#, #"{"resultToken": "a", "n": -}"#, #"{"resultToken": "a", "n": .5}"#,
            #"{"resultToken": "a", "x": [[[[[[[[[["deep"]]]]]]]]]]}"#,
            #"{"resultToken": "a", "n": 123456789012345678901234567890123456789012345678901234567890}"#,
            #"{"résultToken": "a", "resultToken": "b"}"#,
        ]
    )
    func declined(_ json: String) {
        #expect(Self.fast(RedeemRequest.self, Array(json.utf8)) == nil)
    }

    @Test("Invalid UTF-8 in any string is left to JSONDecoder")
    func invalidUTF8() {
        for bytes: [UInt8] in [[0xC3], [0xFF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xC0, 0xAF]] {
            let json = Array(#"{"resultToken": "a", "other": ""#.utf8) + bytes + Array(#""}"#.utf8)
            #expect(Self.fast(RedeemRequest.self, json) == nil)
            let token = Array(#"{"resultToken": ""#.utf8) + bytes + Array(#""}"#.utf8)
            #expect(Self.fast(RedeemRequest.self, token) == nil)
        }
    }

    @Test("Members of the wrong type, missing or null where required are left to JSONDecoder")
    func wrongShapes() throws {
        for json in [
            #"{"userId": 5}"#, #"{"transaction": "Pay"}"#, #"{"transaction": {}}"#, #"{"transaction": {"text": 1}}"#,
            #"{"mode": true}"#, #"{"action": ["a"]}"#,
        ] {
            #expect(Self.fast(CreateAuthenticationRequest.self, Array(json.utf8)) == nil, "\(json)")
        }
        for json in [
            #"{"userId": "alice"}"#, #"{"userId": "alice", "userName": null}"#,
            #"{"userId": "alice", "userName": "a", "finalize": true}"#,
        ] {
            #expect(Self.fast(CreateRegistrationRequest.self, Array(json.utf8)) == nil, "\(json)")
        }
        #expect(Self.fast(CompleteAuthenticationRequest.self, Array(#"{"credential": {}}"#.utf8)) == nil)
        #expect(Self.fast(CompleteAuthenticationRequest.self, Array(#"{"credential": null}"#.utf8)) == nil)
        // A client extension result with a number: JSONValue reads it as Double, which the subset leaves to
        // JSONDecoder.
        var credential = Self.authenticationResponse()
        credential.clientExtensionResults = ["n": .number(1)]
        #expect(Self.fast(CompleteAuthenticationRequest.self, try Self.credentialBody(credential)) == nil)
    }

    @Test("Mutated bodies: whatever the fast path accepts, JSONDecoder accepts as the same value")
    func mutations() throws {
        var random = SplitMix(seed: 15)
        let seeds: [[UInt8]] = [
            Array(
                #"{"userId": "alice", "mode": "stepUp", "transaction": {"text": "Pay 10"}, "action": "x", "n": [1, 2.5e3, -0, true, null]}"#
                    .utf8
            ),
            try Self.credentialBody(Self.authenticationResponse()),
        ]
        let alphabet = Array(#"{}[]",:0123456789.-+eE \tnulltruefalse\é"#.utf8)
        for round in 0..<3000 {
            var json = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let index = Int(random.next() % UInt64(json.count))
                switch random.next() % 4 {
                case 0: json.remove(at: index)
                case 1: json.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: index)
                case 2: json[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                default: json[index] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            Self.expectSameDecoding(CreateAuthenticationRequest.self, json)
            Self.expectSameDecoding(CompleteAuthenticationRequest.self, json)
        }
    }

    // MARK: Payloads

    static let results: [AuthenticationResult] = [
        AuthenticationResult(
            userId: "alice",
            credentialId: "AQID",
            userVerified: true,
            backupEligible: true,
            backupState: false,
            mode: .stepUp,
            action: "payment.approve",
            completedAt: time,
            transaction: transaction,
            assurance: "passkey+uv+idv",
            identityVerification: .init(workflowRunId: "run_1", decision: "approved")
        ),
        AuthenticationResult(
            userId: "bob",
            credentialId: "BA",
            userVerified: false,
            backupEligible: false,
            backupState: false,
            mode: .standard,
            action: nil,
            completedAt: Date(timeIntervalSince1970: 1_764_140_000),
            transaction: nil,
            assurance: nil,
            identityVerification: nil
        ),
    ]

    static let states: [AuthenticationState] = [
        AuthenticationState(mode: .standard),
        AuthenticationState(
            mode: .stepUp,
            action: "payment.approve",
            transaction: transaction,
            identityVerification: true,
            allowedCredentialIDs: ["AQID", "BA"],
            crossPlatformSessionId: "xps_1",
            result: results[0]
        ),
        AuthenticationState(mode: .standard, action: "login", identityVerification: false, result: results[1]),
    ]

    static let registrationStates: [RegistrationState] = [
        RegistrationState(userName: "alice", displayName: "Alice", explicitFinalize: false),
        RegistrationState(
            userName: "Ålice/1",
            displayName: "Ålice \"A\"",
            credentialName: "Phone",
            explicitFinalize: true,
            credentialID: "AQID",
            newAccount: true,
            identityVerification: true,
            maximumActive: 11,
            workflowRunID: "run_3"
        ),
    ]

    static func foundationPayload(_ value: some Encodable) throws -> [UInt8] {
        // As the server wrote payloads before: JSONEncoder's defaults (slashes escaped, keys in any order).
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return Array(try encoder.encode(value))
    }

    @Test("Payloads written without JSONEncoder decode with JSONDecoder to the same value, and back on the fast path")
    func payloadsRoundTrip() throws {
        func check<T: Codable & JSONWritable & FastJSONDecodable>(_ value: T) throws {
            let bytes = try #require(JSONWriter.write(value, dates: .secondsSince1970))
            let sorted = JSONEncoder()
            sorted.dateEncodingStrategy = .secondsSince1970
            sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(bytes == Array(try sorted.encode(value)))
            let decoded = try #require(Self.foundationDecode(T.self, bytes, payload: true))
            #expect(String(describing: decoded) == String(describing: value))
            // Strings with characters JSON escapes are outside the subset.
            Self.expectSameDecoding(T.self, bytes, payload: true, fastPath: !bytes.contains(UInt8(ascii: "\\")))
        }
        for state in Self.states { try check(state) }
        for state in Self.registrationStates { try check(state) }
    }

    @Test("Payloads stored by JSONEncoder decode as before: on the fast path, or (escaped slashes) through JSONDecoder")
    func storedPayloads() throws {
        for state in Self.states {
            let stored = try Self.foundationPayload(state)
            // The transaction's text has a slash, which JSONEncoder escaped by default.
            let hasEscape = stored.contains(UInt8(ascii: "\\"))
            Self.expectSameDecoding(AuthenticationState.self, stored, payload: true, fastPath: !hasEscape)
        }
        for state in Self.registrationStates {
            let stored = try Self.foundationPayload(state)
            let hasEscape = stored.contains(UInt8(ascii: "\\"))
            Self.expectSameDecoding(RegistrationState.self, stored, payload: true, fastPath: !hasEscape)
        }
        // A date of the payload with an exponent or a fraction reads as JSONDecoder reads it.
        for date in ["1764140000", "1764140000.987654", "1.764140000987654e9", "1e16", "-0", "0.000001"] {
            let json =
                #"{"mode":"standard","result":{"userId":"a","credentialId":"AQ","userVerified":true,"backupEligible":false,"backupState":false,"mode":"standard","completedAt":\#(date)}}"#
            Self.expectSameDecoding(AuthenticationState.self, Array(json.utf8), payload: true, fastPath: true)
        }
        // Numbers JSONDecoder refuses as a Double (out of range, or rounding to zero) are left to it.
        for date in ["1e400", "-1e400", "1e-400", "0.1e-330", "1.7976931348623159e308"] {
            let json =
                #"{"mode":"standard","result":{"userId":"a","credentialId":"AQ","userVerified":true,"backupEligible":false,"backupState":false,"mode":"standard","completedAt":\#(date)}}"#
            #expect(Self.fast(AuthenticationState.self, Array(json.utf8)) == nil, "\(date)")
            #expect(Self.foundationDecode(AuthenticationState.self, Array(json.utf8), payload: true) == nil, "\(date)")
        }
        for date in ["0e-400", "0.0", "2.4703282292062328e-324"] {
            let json =
                #"{"mode":"standard","result":{"userId":"a","credentialId":"AQ","userVerified":true,"backupEligible":false,"backupState":false,"mode":"standard","completedAt":\#(date)}}"#
            Self.expectSameDecoding(AuthenticationState.self, Array(json.utf8), payload: true, fastPath: true)
        }
        let unknownMode = #"{"mode":"sudo"}"#
        #expect(Self.fast(AuthenticationState.self, Array(unknownMode.utf8)) == nil)
    }
}

/// A small deterministic generator (SplitMix64), so that a failing mutation can be reproduced.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
