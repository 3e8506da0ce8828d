import Crypto
import Foundation
import PasskeyTesting
import SwiftASN1
import X509

@testable import WebAuthn

/// Certificates `TestCertificateAuthority` cannot issue (another subject, version or issuer), for checking
/// that each requirement is enforced. They are signed by a throwaway issuer key.
enum CertificateFixture {
    static func make(
        for key: Certificate.PublicKey,
        version: Certificate.Version = .v3,
        subject: DistinguishedName,
        issuer: DistinguishedName? = nil,
        issuerKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        extensions: Certificate.Extensions? = nil,
        notBefore: Date = TestCertificateAuthority.notBefore,
        notAfter: Date = TestCertificateAuthority.notAfter
    ) throws -> Certificate {
        try Certificate(
            version: version,
            serialNumber: .init(),
            publicKey: key,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: issuer ?? subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try extensions ?? Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
            issuerPrivateKey: .init(issuerKey)
        )
    }

    /// A subject meeting §8.2.1 with the given parts left out or replaced.
    static func subject(
        country: String? = "US",
        organization: String? = "Vendor",
        unit: String? = "Authenticator Attestation",
        commonName: String? = "Key"
    ) throws -> DistinguishedName {
        var rdns = [RelativeDistinguishedName]()
        if let country {
            rdns.append(
                RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: country))
            )
        }
        if let organization {
            rdns.append(
                RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: organization))
            )
        }
        if let unit {
            rdns.append(
                RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: unit))
            )
        }
        if let commonName {
            rdns.append(RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: commonName)))
        }
        return DistinguishedName(rdns)
    }

    /// The `id-fido-gen-ce-aaguid` extension (1.3.6.1.4.1.45724.1.1.4): an OCTET STRING of the AAGUID.
    static func aaguidExtension(_ aaguid: [UInt8], critical: Bool) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1OctetString(contentBytes: aaguid[...]))
        return Certificate.Extension(
            oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4],
            critical: critical,
            value: serializer.serializedBytes[...]
        )
    }

    /// A `packed` statement with an x5c chain: signs with `attestationKey` and carries `chain` (leaf first).
    static func packedStatement(
        _ parts: SignedParts,
        attestationKey: P256.Signing.PrivateKey,
        chain: [Certificate],
        alg: Int = -7
    ) -> CBORValue {
        .map([
            CBORMapEntry(.text("alg"), CBORValue(alg)),
            CBORMapEntry(
                .text("sig"),
                .bytes(TestSigningKey.p256(attestationKey).sign(parts.authenticatorData + parts.clientDataHash))
            ),
            CBORMapEntry(.text("x5c"), .array(chain.map { .bytes($0.derBytes) })),
        ])
    }
}
