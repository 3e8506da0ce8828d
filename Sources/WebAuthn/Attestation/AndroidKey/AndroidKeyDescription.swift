import SwiftASN1

/// The Android key attestation record: the value of the certificate extension 1.3.6.1.4.1.11129.2.1.17
/// (`KeyDescription` in the Android key attestation schema).
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion         INTEGER,
///     attestationSecurityLevel   SecurityLevel,
///     keymasterVersion           INTEGER,        -- keyMintVersion from version 100
///     keymasterSecurityLevel     SecurityLevel,
///     attestationChallenge       OCTET STRING,
///     uniqueId                   OCTET STRING,
///     softwareEnforced           AuthorizationList,
///     teeEnforced                AuthorizationList }   -- hardwareEnforced in newer schema versions
/// ```
///
/// Parsing is strict DER and bounded: the eight fields in this order and nothing after them.
/// Only the authorization-list entries WebAuthn needs are decoded (see ``AndroidAuthorizationList``).
struct AndroidKeyDescription: Sendable, Hashable {
    /// The extension's object identifier.
    static let extensionID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]
    /// The largest extension value accepted. Real records are a few hundred bytes; the attestation
    /// application id can grow them to a few kilobytes.
    static let maximumSize = 16 * 1024

    /// Where a key or its attestation lives (`SecurityLevel ::= ENUMERATED`).
    struct SecurityLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        let rawValue: Int
        init(rawValue: Int) { self.rawValue = rawValue }

        static let software = Self(rawValue: 0)
        static let trustedEnvironment = Self(rawValue: 1)
        static let strongBox = Self(rawValue: 2)

        var description: String {
            switch self {
            case .software: "Software"
            case .trustedEnvironment: "TrustedEnvironment"
            case .strongBox: "StrongBox"
            default: "SecurityLevel(\(rawValue))"
            }
        }
    }

    let attestationVersion: Int
    let attestationSecurityLevel: SecurityLevel
    /// Keymaster version, or KeyMint version for attestation version 100 and later.
    let keymasterVersion: Int
    let keymasterSecurityLevel: SecurityLevel
    let attestationChallenge: [UInt8]
    let uniqueID: [UInt8]
    let softwareEnforced: AndroidAuthorizationList
    /// The list the trusted execution environment (or StrongBox) enforces.
    let teeEnforced: AndroidAuthorizationList

    /// Parses the DER extension value. Errors are `ATTESTATION_CERTIFICATE_INVALID`.
    init(derEncoded bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumSize else {
            throw Self.malformed("the key description is \(bytes.count) bytes; the limit is \(Self.maximumSize)")
        }
        do {
            let root = try DER.parse(bytes)
            self = try DER.sequence(root, identifier: .sequence) { nodes in
                let attestationVersion = try Int(derEncoded: &nodes)
                let attestationSecurityLevel = try Self.securityLevel(&nodes)
                let keymasterVersion = try Int(derEncoded: &nodes)
                let keymasterSecurityLevel = try Self.securityLevel(&nodes)
                let challenge = try ASN1OctetString(derEncoded: &nodes)
                let uniqueID = try ASN1OctetString(derEncoded: &nodes)
                guard let software = nodes.next(), let tee = nodes.next() else {
                    throw ASN1Error.invalidASN1Object(reason: "the authorization lists are missing")
                }
                return try AndroidKeyDescription(
                    attestationVersion: attestationVersion,
                    attestationSecurityLevel: attestationSecurityLevel,
                    keymasterVersion: keymasterVersion,
                    keymasterSecurityLevel: keymasterSecurityLevel,
                    attestationChallenge: Array(challenge.bytes),
                    uniqueID: Array(uniqueID.bytes),
                    softwareEnforced: AndroidAuthorizationList(node: software),
                    teeEnforced: AndroidAuthorizationList(node: tee)
                )
            }
        } catch {
            throw Self.malformed("it is not a DER KeyDescription (\(error))")
        }
    }

    init(
        attestationVersion: Int,
        attestationSecurityLevel: SecurityLevel,
        keymasterVersion: Int,
        keymasterSecurityLevel: SecurityLevel,
        attestationChallenge: [UInt8],
        uniqueID: [UInt8],
        softwareEnforced: AndroidAuthorizationList,
        teeEnforced: AndroidAuthorizationList
    ) {
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keymasterVersion = keymasterVersion
        self.keymasterSecurityLevel = keymasterSecurityLevel
        self.attestationChallenge = attestationChallenge
        self.uniqueID = uniqueID
        self.softwareEnforced = softwareEnforced
        self.teeEnforced = teeEnforced
    }

    private static func securityLevel(_ nodes: inout ASN1NodeCollection.Iterator) throws -> SecurityLevel {
        guard let node = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "a security level is missing") }
        return SecurityLevel(rawValue: try Int(derEncoded: node, withIdentifier: .enumerated))
    }

    static func malformed(_ reason: String) -> WebAuthnError {
        WebAuthnError(
            .attestationCertificateInvalid,
            "\(AttestationFormat.androidKey.rawValue) attestation: the key attestation extension (1.3.6.1.4.1.11129.2.1.17) is malformed: \(reason)."
        )
    }
}
