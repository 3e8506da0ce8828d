import Crypto
import Foundation
import PasskeyTesting
import Testing

@testable import WebAuthn

/// The relying party every ceremony test runs as, and small helpers to build and alter responses.
enum Fixture {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let challenge: [UInt8] = Array("a challenge of sixteen+ bytes".utf8)
    /// A verification time inside the validity of `TestCertificateAuthority` certificates.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func registrationCeremony(
        attestation: AttestationPolicy = AttestationPolicy(),
        origins: OriginPolicy = OriginPolicy(origin),
        userVerification: UserVerificationRequirement = .preferred,
        allowedAlgorithms: [COSEAlgorithmIdentifier] = COSEAlgorithmIdentifier.recommended,
        allowBackupEligible: Bool = true
    ) -> RegistrationCeremony {
        RegistrationCeremony(
            challenge: challenge,
            relyingPartyID: rpID,
            origins: origins,
            userVerification: userVerification,
            allowedAlgorithms: allowedAlgorithms,
            attestation: attestation,
            allowBackupEligible: allowBackupEligible
        )
    }

    static func authenticationCeremony(
        user: UserIdentification = .credentialOnly,
        origins: OriginPolicy = OriginPolicy(origin),
        userVerification: UserVerificationRequirement = .preferred,
        allowCredentials: [[UInt8]] = [],
        signCountPolicy: SignCountPolicy = .rejectRegression,
        allowBackupEligible: Bool = true
    ) -> AuthenticationCeremony {
        AuthenticationCeremony(
            challenge: challenge,
            relyingPartyID: rpID,
            origins: origins,
            user: user,
            userVerification: userVerification,
            allowCredentials: allowCredentials,
            signCountPolicy: signCountPolicy,
            allowBackupEligible: allowBackupEligible
        )
    }

    /// A registration response for the fixture relying party.
    static func registration(
        _ authenticator: TestAuthenticator,
        attestation: TestAuthenticator.Attestation = .none,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified],
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) throws -> RegistrationResponseJSON {
        try authenticator.registrationResponse(
            challenge: challenge,
            origin: origin,
            rpID: rpID,
            attestation: attestation,
            flags: flags,
            modify: modify
        )
    }

    /// An authentication response for the fixture relying party (the counter increments first).
    static func authentication(
        _ authenticator: inout TestAuthenticator,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified],
        incrementCounter: Bool = true,
        includeUserHandle: Bool = true,
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) -> AuthenticationResponseJSON {
        authenticator.authenticationResponse(
            challenge: challenge,
            origin: origin,
            rpID: rpID,
            flags: flags,
            incrementCounter: incrementCounter,
            includeUserHandle: includeUserHandle,
            modify: modify
        )
    }

    /// Decodes a response's attestation object, lets `transform` change its map, and re-encodes it.
    /// The authenticator data and client data are untouched, so their signatures stay valid.
    static func rewritingAttestationObject(
        _ response: RegistrationResponseJSON,
        _ transform: (inout [CBORMapEntry]) throws -> Void
    ) throws -> RegistrationResponseJSON {
        let limits = CBORLimits(maximumInputSize: AttestationObject.maximumSize, requireCanonicalMapOrder: false)
        var entries = try CBORDecoder(limits: limits).decode(response.response.attestationObject.bytes).mapEntries ?? []
        try transform(&entries)
        var rewritten = response
        rewritten.response.attestationObject = Base64URLBytes(CBOREncoder.encode(.map(entries)))
        return rewritten
    }

    /// Replaces the value of `key` in a map's entries (or adds it).
    static func set(_ key: String, _ value: CBORValue, in entries: inout [CBORMapEntry]) {
        if let index = entries.firstIndex(where: { $0.key == .text(key) }) {
            entries[index].value = value
        } else {
            entries.append(CBORMapEntry(.text(key), value))
        }
    }

    /// The attestation statement map of an attestation object's entries, changed by `transform`.
    static func rewritingStatement(
        _ response: RegistrationResponseJSON,
        _ transform: (inout [CBORMapEntry]) throws -> Void
    ) throws -> RegistrationResponseJSON {
        try rewritingAttestationObject(response) { object in
            var statement = object.first { $0.key == .text("attStmt") }?.value.mapEntries ?? []
            try transform(&statement)
            set("attStmt", .map(statement), in: &object)
        }
    }
}

/// The pieces an attestation statement signs, for tests that assemble statements by hand.
struct SignedParts {
    let authenticatorData: [UInt8]
    let clientDataJSON: [UInt8]
    let clientDataHash: [UInt8]
    let rpIDHash: [UInt8]
}

extension Fixture {
    /// A registration response whose attestation statement is built by `statement` from the signed parts,
    /// for formats and defects `TestAuthenticator` does not produce.
    static func registration(
        _ authenticator: TestAuthenticator,
        format: String,
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in },
        statement: (SignedParts) throws -> CBORValue
    ) throws -> RegistrationResponseJSON {
        var builder = AuthenticatorDataBuilder(rpID: rpID, signCount: authenticator.signCount)
        builder.aaguid = authenticator.aaguid
        builder.credentialID = authenticator.credentialID
        builder.credentialPublicKey = authenticator.key.coseKey
        var clientData = ClientDataBuilder(type: "webauthn.create", challenge: challenge, origin: origin)
        modify(&builder, &clientData)
        let authenticatorData = builder.build()
        let clientDataJSON = clientData.build()
        let parts = SignedParts(
            authenticatorData: authenticatorData,
            clientDataJSON: clientDataJSON,
            clientDataHash: Array(SHA256.hash(data: clientDataJSON)),
            rpIDHash: builder.rpIDHash
        )
        let object = CBOREncoder.encode(
            .map([
                CBORMapEntry(.text("fmt"), .text(format)),
                CBORMapEntry(.text("attStmt"), try statement(parts)),
                CBORMapEntry(.text("authData"), .bytes(authenticatorData)),
            ])
        )
        return RegistrationResponseJSON(
            id: Base64URL.encode(authenticator.credentialID),
            rawId: Base64URLBytes(authenticator.credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                attestationObject: Base64URLBytes(object)
            )
        )
    }
}

/// An error value to compare against: `WebAuthnError` equality is by code.
func code(_ code: WebAuthnError.Code) -> WebAuthnError { WebAuthnError(code, "expected") }

/// The two ceremonies, for steps that §7.1 and §7.2 share.
enum CeremonyKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case registration, authentication
    var testDescription: String { rawValue }
}

/// What a shared step can vary: the relying party's policy, and the response's flags and data.
struct StepSetup {
    var origins = OriginPolicy(Fixture.origin)
    var relyingPartyIDs = [Fixture.rpID]
    var userVerification: UserVerificationRequirement = .preferred
    var requireUserPresence = true
    var allowBackupEligible = true
    var flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
    var modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
}

extension Fixture {
    /// Makes a response of `kind` as `setup` says and verifies it; throws what verification throws.
    static func run(_ kind: CeremonyKind, _ setup: StepSetup) async throws {
        var authenticator = TestAuthenticator()
        switch kind {
        case .registration:
            var ceremony = registrationCeremony(
                origins: setup.origins,
                userVerification: setup.userVerification,
                allowBackupEligible: setup.allowBackupEligible
            )
            ceremony.relyingPartyIDs = setup.relyingPartyIDs
            ceremony.requireUserPresence = setup.requireUserPresence
            let response = try registration(authenticator, flags: setup.flags) { authenticatorData, clientData in
                setup.modify(&authenticatorData, &clientData)
            }
            _ = try await ceremony.verify(response, at: now)
        case .authentication:
            var ceremony = authenticationCeremony(
                origins: setup.origins,
                userVerification: setup.userVerification,
                allowBackupEligible: setup.allowBackupEligible
            )
            ceremony.relyingPartyIDs = setup.relyingPartyIDs
            ceremony.requireUserPresence = setup.requireUserPresence
            let record = authenticator.record
            let response = authentication(&authenticator, flags: setup.flags) { authenticatorData, clientData in
                setup.modify(&authenticatorData, &clientData)
            }
            _ = try ceremony.verify(response, credential: record)
        }
    }

    /// The `clientData.type` of `kind`.
    static func clientDataType(_ kind: CeremonyKind) -> String {
        kind == .registration ? "webauthn.create" : "webauthn.get"
    }
}

/// A fixture that cannot be built as asked (a mistake in the test, not in the library).
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
