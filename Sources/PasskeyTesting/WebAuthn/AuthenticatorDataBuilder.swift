import Crypto
import Foundation
import PasskeyClient
public import WebAuthn

/// Builds authenticator data (WebAuthn §6.1) byte by byte, so tests can produce valid and broken variants.
public struct AuthenticatorDataBuilder: Sendable {
    public var rpIDHash: [UInt8]
    public var flags: AuthenticatorDataFlags
    public var signCount: UInt32
    public var aaguid: [UInt8]
    public var credentialID: [UInt8]?
    public var credentialPublicKey: [UInt8]?
    /// Authenticator extension outputs, already CBOR-encoded.
    public var extensions: [UInt8]?

    public init(rpID: String, flags: AuthenticatorDataFlags = [.userPresent, .userVerified], signCount: UInt32 = 0) {
        self.rpIDHash = Array(SHA256.hash(data: Array(rpID.utf8)))
        self.flags = flags
        self.signCount = signCount
        self.aaguid = [UInt8](repeating: 0, count: 16)
    }

    /// The encoded bytes; AT and ED follow from what is set unless `flags` already says otherwise.
    public func build() -> [UInt8] {
        var flags = self.flags
        if credentialID != nil { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        var attested: [UInt8]?
        if let credentialID, let credentialPublicKey {
            attested = AuthenticatorDataEncoding.attestedCredentialData(
                aaguid: aaguid,
                credentialID: credentialID,
                credentialPublicKey: credentialPublicKey
            )
        }
        return AuthenticatorDataEncoding.encode(
            rpIDHash: rpIDHash,
            flags: flags,
            signCount: signCount,
            attestedCredentialData: attested,
            extensions: extensions
        )
    }
}

/// Builds `clientDataJSON` (WebAuthn §5.8.1) with the members in the order browsers use.
public struct ClientDataBuilder: Sendable {
    public var type: String
    public var challenge: [UInt8]
    public var origin: String
    public var crossOrigin: Bool?
    public var topOrigin: String?
    /// Extra members appended verbatim (`"name": value` JSON), for testing tolerance and token binding.
    public var extraMembers: [String]

    public init(type: String, challenge: [UInt8], origin: String) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.extraMembers = []
    }

    public func build() -> [UInt8] {
        ClientDataEncoding.encode(
            type: type,
            challenge: challenge,
            origin: origin,
            crossOrigin: crossOrigin,
            topOrigin: topOrigin,
            extraMembers: extraMembers
        )
    }
}
