import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// Big-endian marshaling of TPM structures, for building statements in tests.
enum TPMMarshal {
    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) }
    static func u64(_ value: UInt64) -> [UInt8] { u32(UInt32(value >> 32)) + u32(UInt32(value & 0xFFFF_FFFF)) }
    static func sized(_ bytes: [UInt8]) -> [UInt8] { u16(UInt16(bytes.count)) + bytes }

    /// A `TPMS_ATTEST` of `TPM2_Certify`, with every field adjustable.
    static func certInfo(
        magic: UInt32 = TPMSAttest.generatedValue,
        type: UInt16 = TPMSAttest.attestCertify,
        qualifiedSigner: [UInt8] = [0x00, 0x0B] + [UInt8](repeating: 0xA5, count: 32),
        extraData: [UInt8],
        clock: [UInt8] = [UInt8](repeating: 0x01, count: 17),
        firmwareVersion: UInt64 = 0x0001_0002_0003_0004,
        name: [UInt8],
        qualifiedName: [UInt8] = [0x00, 0x0B] + [UInt8](repeating: 0x5A, count: 32)
    ) -> [UInt8] {
        u32(magic) + u16(type) + sized(qualifiedSigner) + sized(extraData) + clock + u64(firmwareVersion)
            + sized(name) + sized(qualifiedName)
    }

    /// The Name of a public area with SHA-256: `TPM_ALG_SHA256 || SHA-256(pubArea)`.
    static func sha256Name(_ pubArea: [UInt8]) -> [UInt8] { u16(0x000B) + Array(SHA256.hash(data: pubArea)) }
}

/// What the AIK certificate of a synthetic statement looks like; the defaults meet §8.3.1.
struct TPMAIKCertificateOptions {
    static let manufacturer: ASN1ObjectIdentifier = [2, 23, 133, 2, 1]
    static let model: ASN1ObjectIdentifier = [2, 23, 133, 2, 2]
    static let version: ASN1ObjectIdentifier = [2, 23, 133, 2, 3]

    var version: Certificate.Version = .v3
    var subject = DistinguishedName()
    /// The directoryName of the subject alternative name; nil leaves the extension out.
    var tpmAttributes: DistinguishedName? = Self.attributes(manufacturer: "id:FFFFF1D0")
    var sanCritical = true
    /// The extended key usages; nil leaves the extension out.
    var extendedKeyUsages: [ASN1ObjectIdentifier]? = [[2, 23, 133, 8, 3]]
    /// Basic constraints; nil leaves the extension out.
    var basicConstraints: BasicConstraints? = .notCertificateAuthority
    /// The value of an id-fido-gen-ce-aaguid extension; nil leaves it out.
    var aaguidExtension: [UInt8]?

    /// The TPM attributes in one multi-valued RDN (as Windows AIK certificates do).
    static func attributes(
        manufacturer: String,
        model: String = "TestTPM",
        version: String = "id:13"
    ) -> DistinguishedName {
        DistinguishedName([
            RelativeDistinguishedName([
                .init(type: Self.manufacturer, utf8String: manufacturer),
                .init(type: Self.model, utf8String: model),
                .init(type: Self.version, utf8String: version),
            ])
        ])
    }

    func certificate(for aikKey: P256.Signing.PrivateKey, issuedBy caKey: P256.Signing.PrivateKey) throws -> [UInt8] {
        var extensions = [Certificate.Extension]()
        if let tpmAttributes {
            extensions.append(
                try Certificate.Extension(
                    SubjectAlternativeNames([.directoryName(tpmAttributes)]),
                    critical: sanCritical
                )
            )
        }
        if let extendedKeyUsages {
            extensions.append(
                try Certificate.Extension(
                    ExtendedKeyUsage(extendedKeyUsages.map { ExtendedKeyUsage.Usage(oid: $0) }),
                    critical: false
                )
            )
        }
        if let basicConstraints {
            extensions.append(try Certificate.Extension(basicConstraints, critical: true))
        }
        if let aaguidExtension {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: aaguidExtension[...]))
            extensions.append(
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4],
                    critical: false,
                    value: serializer.serializedBytes[...]
                )
            )
        }
        let issuer = DistinguishedName([
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "TPM Test CA"))
        ])
        let certificate = try Certificate(
            version: version,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(aikKey.publicKey),
            notValidBefore: Date() - 3600,
            notValidAfter: Date() + 86400 * 365,
            issuer: issuer,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: .init(caKey)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

/// A `tpm` attestation statement made in the test, signed by a fresh P-256 AIK (alg ES256), so every field
/// can be changed and, where a test needs it, signed again.
struct TPMSyntheticStatement {
    enum CredentialKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case ecP256, rsa2048
        var testDescription: String { rawValue }
    }

    /// One RSA key for all tests: generating RSA keys is slow.
    static let rsaCredentialKey: _RSA.Signing.PrivateKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    var authenticatorData: [UInt8]
    var clientDataHash: [UInt8]
    var pubArea: [UInt8]
    var certInfo: [UInt8]
    var sig: [UInt8]
    var x5c: [[UInt8]]
    var alg: COSEAlgorithmIdentifier = .es256
    let aikKey: P256.Signing.PrivateKey
    let aaguid: [UInt8]

    static func make(
        _ kind: CredentialKind = .ecP256,
        certificate: TPMAIKCertificateOptions = TPMAIKCertificateOptions(),
        aaguid: [UInt8] = [UInt8](repeating: 0x42, count: 16)
    ) throws -> Self {
        let (coseKey, pubArea) = try credential(kind)
        let authenticatorData =
            Array(SHA256.hash(data: Array("example.com".utf8))) + [0x45] + TPMMarshal.u32(0)
            + aaguid + TPMMarshal.sized([UInt8](repeating: 0xC1, count: 16)) + coseKey
        let clientDataHash = Array(SHA256.hash(data: Array("{\"type\":\"webauthn.create\"}".utf8)))
        let extraData = Array(SHA256.hash(data: authenticatorData + clientDataHash))
        let certInfo = TPMMarshal.certInfo(extraData: extraData, name: TPMMarshal.sha256Name(pubArea))
        let aikKey = P256.Signing.PrivateKey()
        let caKey = P256.Signing.PrivateKey()
        var statement = Self(
            authenticatorData: authenticatorData,
            clientDataHash: clientDataHash,
            pubArea: pubArea,
            certInfo: certInfo,
            sig: [],
            x5c: [try certificate.certificate(for: aikKey, issuedBy: caKey)],
            aikKey: aikKey,
            aaguid: aaguid
        )
        try statement.resign()
        return statement
    }

    /// The COSE credential key and the matching `TPMT_PUBLIC`.
    static func credential(_ kind: CredentialKind) throws -> (cose: [UInt8], pubArea: [UInt8]) {
        let objectAttributes = TPMMarshal.u32(0x0006_0472)
        let authPolicy = TPMMarshal.sized([UInt8](repeating: 0x9D, count: 32))
        switch kind {
        case .ecP256:
            let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
            let x = Array(point[1..<33])
            let y = Array(point[33..<65])
            let cose = CBOREncoder.encode(
                .map([
                    CBORMapEntry(CBORValue(1), CBORValue(2)), CBORMapEntry(CBORValue(3), CBORValue(-7)),
                    CBORMapEntry(CBORValue(-1), CBORValue(1)), CBORMapEntry(CBORValue(-2), .bytes(x)),
                    CBORMapEntry(CBORValue(-3), .bytes(y)),
                ])
            )
            // TPM_ALG_ECC, SHA-256, attributes, authPolicy, symmetric NULL, ECDSA/SHA-256, NIST P-256, KDF NULL, x, y.
            let pubArea =
                TPMMarshal.u16(0x0023) + TPMMarshal.u16(0x000B) + objectAttributes + authPolicy
                + TPMMarshal.u16(0x0010) + TPMMarshal.u16(0x0018) + TPMMarshal.u16(0x000B) + TPMMarshal.u16(0x0003)
                + TPMMarshal.u16(0x0010) + TPMMarshal.sized(x) + TPMMarshal.sized(y)
            return (cose, pubArea)
        case .rsa2048:
            let primitives = try rsaCredentialKey.publicKey.getKeyPrimitives()
            let n = Array(primitives.modulus)
            let e = Array(primitives.publicExponent)
            let cose = CBOREncoder.encode(
                .map([
                    CBORMapEntry(CBORValue(1), CBORValue(3)), CBORMapEntry(CBORValue(3), CBORValue(-257)),
                    CBORMapEntry(CBORValue(-1), .bytes(n)), CBORMapEntry(CBORValue(-2), .bytes(e)),
                ])
            )
            // TPM_ALG_RSA, SHA-256, attributes, authPolicy, symmetric NULL, RSASSA/SHA-256, 2048 bits,
            // exponent 0 (the default, 65537), modulus.
            let pubArea =
                TPMMarshal.u16(0x0001) + TPMMarshal.u16(0x000B) + objectAttributes + authPolicy
                + TPMMarshal.u16(0x0010) + TPMMarshal.u16(0x0014) + TPMMarshal.u16(0x000B) + TPMMarshal.u16(2048)
                + TPMMarshal.u32(0) + TPMMarshal.sized(n)
            return (cose, pubArea)
        }
    }

    /// Signs `certInfo` again with the AIK, as a TPM would have.
    mutating func resign() throws {
        sig = Array(try aikKey.signature(for: certInfo).derRepresentation)
    }

    /// `certInfo` rebuilt with the given changes, with the correct extraData and name unless they are given.
    func certInfo(
        magic: UInt32 = TPMSAttest.generatedValue,
        type: UInt16 = TPMSAttest.attestCertify,
        extraData: [UInt8]? = nil,
        name: [UInt8]? = nil
    ) -> [UInt8] {
        TPMMarshal.certInfo(
            magic: magic,
            type: type,
            extraData: extraData ?? Array(SHA256.hash(data: authenticatorData + clientDataHash)),
            name: name ?? TPMMarshal.sha256Name(pubArea)
        )
    }

    var fields: CBORValue {
        .map([
            CBORMapEntry(.text("ver"), .text("2.0")),
            CBORMapEntry(.text("alg"), CBORValue(alg.rawValue)),
            CBORMapEntry(.text("x5c"), .array(x5c.map { .bytes($0) })),
            CBORMapEntry(.text("sig"), .bytes(sig)),
            CBORMapEntry(.text("certInfo"), .bytes(certInfo)),
            CBORMapEntry(.text("pubArea"), .bytes(pubArea)),
        ])
    }

    func statement(
        fields: CBORValue? = nil,
        policy: AttestationPolicy = AttestationPolicy()
    ) throws -> AttestationStatement {
        try AttestationStatement.tpm(
            fields: fields ?? self.fields,
            authenticatorData: try AuthenticatorData(bytes: authenticatorData),
            clientDataHash: clientDataHash,
            policy: policy
        )
    }
}
