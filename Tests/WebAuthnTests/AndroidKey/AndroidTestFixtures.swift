import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// Builders for synthetic Android attestations: DER, certificates, authenticator data, statements.
enum AndroidTestFixtures {
    /// A fixed verification time for synthetic statements.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    // MARK: DER

    /// A DER TLV with a one-byte identifier.
    static func tlv(_ identifier: UInt8, _ content: [UInt8]) -> [UInt8] {
        [identifier] + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes = [UInt8]()
        var value = count
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func integer(_ value: Int, identifier: UInt8 = 0x02) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0)
        {
            bytes.removeFirst()
        }
        return tlv(identifier, bytes)
    }

    static func enumerated(_ value: Int) -> [UInt8] { integer(value, identifier: 0x0A) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    static let null: [UInt8] = [0x05, 0x00]
    static func sequence(_ items: [[UInt8]]) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    static func set(_ items: [[UInt8]]) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }

    /// `[tag] EXPLICIT value`: a constructed context-specific tag, in high-tag-number form from 31 up.
    static func explicit(_ tag: UInt, _ value: [UInt8]) -> [UInt8] {
        let identifier: [UInt8]
        if tag < 31 {
            identifier = [0xA0 | UInt8(tag)]
        } else {
            var digits = [UInt8(tag & 0x7F)]
            var rest = tag >> 7
            while rest > 0 {
                digits.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            identifier = [0xBF] + digits
        }
        return identifier + length(value.count) + value
    }

    // MARK: Key description

    /// Authorization-list entries of a key generated for signing in the TEE.
    static let generatedSigningKey: [[UInt8]] = [
        explicit(1, set([integer(2)])),  // purpose: SIGN
        explicit(2, integer(3)),  // algorithm: EC
        explicit(702, integer(0)),  // origin: GENERATED
    ]

    static func keyDescription(
        version: Int = 300,
        securityLevel: Int = 1,
        challenge: [UInt8],
        softwareEnforced: [[UInt8]] = [explicit(701, integer(1_700_000_000_000))],
        teeEnforced: [[UInt8]] = generatedSigningKey
    ) -> [UInt8] {
        sequence([
            integer(version), enumerated(securityLevel), integer(version), enumerated(securityLevel),
            octetString(challenge), octetString([]), sequence(softwareEnforced), sequence(teeEnforced),
        ])
    }

    // MARK: Certificates

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func certificate(
        commonName: String,
        publicKey: Certificate.PublicKey,
        signedBy issuerKey: Certificate.PrivateKey,
        signatureAlgorithm: Certificate.SignatureAlgorithm,
        extensions: [Certificate.Extension] = []
    ) throws -> Certificate {
        let name = try DistinguishedName { CommonName(commonName) }
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: now - 86_400,
            notValidAfter: now + 86_400,
            issuer: name,
            subject: name,
            signatureAlgorithm: signatureAlgorithm,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: issuerKey
        )
    }

    // MARK: Authenticator data

    /// Authenticator data (UP, AT) for a P-256 credential key.
    static func authenticatorData(credentialKey: P256.Signing.PublicKey) throws -> AuthenticatorData {
        let point = Array(credentialKey.x963Representation)
        let coseKey = CBOREncoder.encode(
            .map([
                CBORMapEntry(CBORValue(1), CBORValue(2)),
                CBORMapEntry(CBORValue(3), CBORValue(-7)),
                CBORMapEntry(CBORValue(-1), CBORValue(1)),
                CBORMapEntry(CBORValue(-2), .bytes(Array(point[1...32]))),
                CBORMapEntry(CBORValue(-3), .bytes(Array(point[33...64]))),
            ])
        )
        let credentialID = [UInt8](repeating: 0xA5, count: 16)
        var bytes = Array(SHA256.hash(data: Array("example.org".utf8)))
        bytes += [0x41, 0, 0, 0, 0]
        bytes += [UInt8](repeating: 0, count: 16)
        bytes += [0, UInt8(credentialID.count)] + credentialID + coseKey
        return try AuthenticatorData(bytes: bytes)
    }

    static let clientDataHash = Array(
        SHA256.hash(
            data: Array(#"{"type":"webauthn.create","challenge":"c3ludGhldGlj","origin":"https://example.org"}"#.utf8)
        )
    )

    static func statement(
        format: AttestationFormat,
        fields: [String: CBORValue],
        authenticatorData: AuthenticatorData,
        clientDataHash: [UInt8] = clientDataHash,
        policy: AttestationPolicy = AttestationPolicy(),
        time: Date = now
    ) -> AttestationStatement {
        AttestationStatement(
            format: format,
            fields: .map(fields.map { CBORMapEntry(.text($0.key), $0.value) }),
            authenticatorData: authenticatorData,
            credential: authenticatorData.attestedCredentialData!,
            clientDataHash: clientDataHash,
            policy: policy,
            time: time
        )
    }

    /// Calls `body` and returns the `WebAuthnError` it throws, or nil when it succeeds.
    /// Any other error is recorded as a test issue.
    static func error(_ body: () throws -> Void) -> WebAuthnError? {
        do {
            try body()
            return nil
        } catch let error as WebAuthnError {
            return error
        } catch {
            Issue.record("expected a WebAuthnError, got \(error)")
            return nil
        }
    }
}
