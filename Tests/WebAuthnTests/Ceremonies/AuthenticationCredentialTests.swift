import PasskeyTesting
import Testing

@testable import WebAuthn

/// §7.2 steps 3, 5 and 7: the credential an authentication response names.
struct AuthenticationCredentialTests {
    @Test("§7.2 step 3: the credential type must be public-key", arguments: ["", "password", "PUBLIC-KEY"])
    func credentialType(_ type: String) throws {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        var response = Fixture.authentication(&authenticator)
        _ = try Fixture.authenticationCeremony().verify(response, credential: record)
        response.type = PublicKeyCredentialType(rawValue: type)
        #expect(throws: code(.credentialTypeMismatch)) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
    }

    @Test("§7.2 step 3: id must be the base64url encoding of rawId")
    func idBindsRawID() {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        var response = Fixture.authentication(&authenticator)
        response.id = Base64URL.encode(authenticator.credentialID + [0])
        #expect(throws: code(.credentialIDMismatch)) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
        response.id = Base64URL.encode(authenticator.credentialID) + "=="
        #expect(throws: code(.credentialIDMismatch)) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
    }

    @Test(
        "§7.2 step 5: with allowCredentials, the credential must be one of them",
        arguments: [
            ("listed first", true), ("listed among others", true), ("not listed", false), ("empty list", true),
        ]
    )
    func allowCredentials(_ situation: String, _ accepted: Bool) throws {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        let response = Fixture.authentication(&authenticator)
        let others: [[UInt8]] = [
            Array(repeating: 1, count: 32), Array(authenticator.credentialID.dropLast()),
            authenticator.credentialID + [0],
        ]
        let allowed: [[UInt8]] =
            switch situation {
            case "listed first": [authenticator.credentialID]
            case "listed among others": others + [authenticator.credentialID]
            case "not listed": others
            default: []
            }
        let ceremony = Fixture.authenticationCeremony(allowCredentials: allowed)
        if accepted {
            _ = try ceremony.verify(response, credential: record)
        } else {
            #expect(throws: code(.credentialIDMismatch)) { try ceremony.verify(response, credential: record) }
        }
    }

    @Test("§7.2 step 7: the credential record must be the one rawId names")
    func recordForAnotherCredential() {
        var authenticator = TestAuthenticator()
        var record = authenticator.record
        record.id = Array(repeating: 0x77, count: 32)
        let response = Fixture.authentication(&authenticator)
        #expect(throws: code(.credentialIDMismatch)) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
    }

    @Test(
        "§7.2 step 21: the signature must verify with the credential public key over authenticatorData || hash(clientDataJSON)"
    )
    func signature() throws {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        let valid = Fixture.authentication(&authenticator)
        _ = try Fixture.authenticationCeremony().verify(valid, credential: record)

        var flipped = valid
        flipped.response.signature.bytes[flipped.response.signature.bytes.count - 1] ^= 0x01
        var empty = valid
        empty.response.signature = []
        var byAnotherKey = valid
        byAnotherKey.response.signature = Base64URLBytes(
            TestSigningKey.generate(.es256).sign(
                valid.response.authenticatorData.bytes + Array(valid.response.clientDataJSON.bytes)
            )
        )
        // Authenticator data changed after signing (the counter raised by one): still well-formed, no longer signed.
        var resigned = valid
        resigned.response.authenticatorData.bytes[36] &+= 1
        // The signature over the raw clientDataJSON instead of its hash.
        var unhashed = valid
        unhashed.response.signature = Base64URLBytes(
            authenticator.key.sign(valid.response.authenticatorData.bytes + valid.response.clientDataJSON.bytes)
        )

        for (name, response) in [
            ("flipped bit", flipped), ("empty", empty), ("another key", byAnotherKey), ("changed data", resigned),
            ("unhashed", unhashed),
        ] {
            #expect(throws: code(.signatureInvalid), "\(name)") {
                try Fixture.authenticationCeremony().verify(response, credential: record)
            }
        }
    }

    @Test(
        "§7.2 step 21: each algorithm's assertion signature is checked",
        arguments: [
            COSEAlgorithmIdentifier.es256, .es384, .es512, .edDSA, .rs256, .ps256,
        ]
    )
    func signatureEachAlgorithm(_ algorithm: COSEAlgorithmIdentifier) throws {
        var authenticator = TestAuthenticator(algorithm: algorithm)
        let record = authenticator.record
        var response = Fixture.authentication(&authenticator)
        _ = try Fixture.authenticationCeremony().verify(response, credential: record)
        response.response.signature.bytes[0] ^= 0x10
        #expect(throws: code(.signatureInvalid)) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
    }

    static let backupEligibilityCases: [(Bool?, AuthenticatorDataFlags, Bool)] = [
        (true, .backupEligible, true), (true, [], false), (false, .backupEligible, false),
        (false, [], true), (nil, .backupEligible, true), (nil, [], true),
    ]

    @Test("§7.2 step 18: BE must not change since registration", arguments: backupEligibilityCases)
    func backupEligibilityUnchanged(_ registered: Bool?, _ backupFlags: AuthenticatorDataFlags, _ accepted: Bool) throws
    {
        var authenticator = TestAuthenticator()
        var record = authenticator.record
        record.backupEligible = registered
        let response = Fixture.authentication(&authenticator, flags: backupFlags.union([.userPresent, .userVerified]))
        if accepted {
            let result = try Fixture.authenticationCeremony().verify(response, credential: record)
            #expect(result.backupEligible == backupFlags.contains(.backupEligible))
        } else {
            #expect(throws: code(.backupFlagsInvalid)) {
                try Fixture.authenticationCeremony().verify(response, credential: record)
            }
        }
    }

    @Test("§7.2 step 19: extension outputs and client extension results are returned, not interpreted")
    func extensionOutputs() throws {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        let outputs = CBORValue.map([CBORMapEntry(.text("largeBlobKey"), .bytes([1, 2]))])
        var response = Fixture.authentication(&authenticator) { authenticatorData, _ in
            authenticatorData.extensions = CBOREncoder.encode(outputs)
        }
        response.clientExtensionResults = ["appid": .bool(false)]
        let result = try Fixture.authenticationCeremony().verify(response, credential: record)
        #expect(result.authenticatorData.extensions == outputs)
        #expect(result.clientExtensionResults == ["appid": .bool(false)])
        #expect(result.authenticatorAttachment == .platform)
    }
}
