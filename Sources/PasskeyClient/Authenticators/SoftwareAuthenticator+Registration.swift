import Crypto
import Foundation
public import WebAuthn

extension SoftwareAuthenticator {
    /// `authenticatorMakeCredential` (WebAuthn §6.3.2) with the client's part of `create()` (§5.1.3).
    public func makeCredential(
        _ request: CredentialCreationRequest
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        let options = request.options
        let userVerification = UserVerificationRequirementValue(options.authenticatorSelection?.userVerification)
        let verificationRequest = UserVerificationRequest(
            ceremony: .registration,
            rpID: request.rpID,
            userName: options.user.name,
            userVerification: userVerification
        )

        // §6.3.2 step 3: an excluded credential here ends the ceremony — after the user confirms, so a page cannot
        // probe for credentials silently.
        let excluded = Set((options.excludeCredentials ?? []).map(\.id.bytes))
        if !excluded.isEmpty,
            let match = try await keyStore.entries().first(where: {
                $0.rpId == request.rpID && excluded.contains($0.credentialId.bytes)
            })
        {
            _ = try await verifier.verifyUser(verificationRequest)
            throw PasskeyError(
                .passkeyAlreadyExists,
                "This device already has a passkey for this account (\(match.credentialId.base64URL)); sign in with it instead."
            )
        }
        // §6.3.2 step 2: only ES256 is supported.
        guard
            options.pubKeyCredParams.isEmpty
                || options.pubKeyCredParams.contains(where: { $0.type == .publicKey && $0.alg == .es256 })
        else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The server offers none of the algorithms this authenticator supports (ES256, COSE -7)."
            )
        }
        let selection = options.authenticatorSelection
        let residentKey = selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : .discouraged)
        guard residentKey != .required || behaviour.residentKeys else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The server requires a discoverable credential (resident key), which this authenticator cannot store."
            )
        }
        let discoverable = behaviour.residentKeys && residentKey != .discouraged

        let outcome = try await verifier.verifyUser(verificationRequest)
        try Self.check(outcome, against: userVerification)
        let key = try await keys.makeKey(verification: outcome)
        let credentialID = KeyStoreKeys.randomBytes(32)
        let publicKey = COSEKeyEncoding.ec2(uncompressedPoint: key.publicKey, curve: 1, algorithm: .es256)

        let conveyance = options.attestation ?? .none
        let attested = behaviour.attestation == .packedSelf && conveyance != .none
        var flags: AuthenticatorDataFlags = [.userPresent, .attestedCredentialData]
        if outcome.userVerified { flags.insert(.userVerified) }
        flags.formUnion(behaviour.backup.flags)
        let authenticatorData = AuthenticatorDataEncoding.encode(
            rpIDHash: Array(SHA256.hash(data: Array(request.rpID.utf8))),
            flags: flags,
            signCount: 0,
            attestedCredentialData: AuthenticatorDataEncoding.attestedCredentialData(
                aaguid: attested ? behaviour.aaguid : Array(repeating: 0, count: 16),
                credentialID: credentialID,
                credentialPublicKey: publicKey
            )
        )
        let clientDataJSON = ClientDataEncoding.encode(
            type: "webauthn.create",
            challenge: options.challenge.bytes,
            origin: request.origin,
            crossOrigin: false
        )
        var statement: [CBORMapEntry] = []
        if attested {
            let signature = try await keys.sign(
                authenticatorData + Array(SHA256.hash(data: clientDataJSON)),
                stored: key.stored,
                verification: outcome
            )
            statement = AttestationObjectEncoding.packedSelfStatement(algorithm: .es256, signature: signature)
        }
        let attestationObject = AttestationObjectEncoding.encode(
            format: attested ? "packed" : "none",
            statement: statement,
            authenticatorData: authenticatorData
        )

        let entry = KeyStoreEntry(
            credentialId: Base64URLBytes(credentialID),
            key: Base64URLBytes(key.stored),
            rpId: request.rpID,
            userHandle: options.user.id,
            userName: options.user.name,
            userDisplayName: options.user.displayName,
            userId: request.userId,
            discoverable: discoverable,
            signCount: 0,
            backupEligible: flags.contains(.backupEligible),
            backupState: flags.contains(.backupState),
            createdAt: now()
        )
        try await keyStore.update { entries throws(PasskeyError) in
            // A discoverable credential replaces one of the same user on this RP (§6.3.2 step 7.4).
            if discoverable {
                entries.removeAll { $0.discoverable && $0.rpId == entry.rpId && $0.userHandle == entry.userHandle }
            }
            entries.append(entry)
        }

        var extensionResults: [String: JSONValue] = [:]
        if options.extensions?["credProps"] == .bool(true) {
            extensionResults["credProps"] = .object(["rk": .bool(discoverable)])
        }
        let spki = try? P256.Signing.PublicKey(x963Representation: key.publicKey).derRepresentation
        return RegistrationResponseJSON(
            id: Base64URL.encode(credentialID),
            rawId: Base64URLBytes(credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                attestationObject: Base64URLBytes(attestationObject),
                authenticatorData: Base64URLBytes(authenticatorData),
                transports: behaviour.transports,
                publicKey: spki.map { Base64URLBytes(Array($0)) },
                publicKeyAlgorithm: .es256
            ),
            authenticatorAttachment: behaviour.attachment,
            clientExtensionResults: extensionResults
        )
    }

    /// `required` user verification must have happened.
    static func check(
        _ outcome: UserVerificationOutcome,
        against requirement: UserVerificationRequirementValue
    ) throws(PasskeyError) {
        guard requirement != .required || outcome.userVerified else {
            throw PasskeyError(
                .userVerificationFailed,
                "The server requires user verification, and the user was not verified (only present)."
            )
        }
    }
}

extension SoftwareAuthenticator.Behaviour.Backup {
    var flags: AuthenticatorDataFlags {
        switch self {
        case .deviceBound: []
        case .eligible: [.backupEligible]
        case .synced: [.backupEligible, .backupState]
        }
    }
}
