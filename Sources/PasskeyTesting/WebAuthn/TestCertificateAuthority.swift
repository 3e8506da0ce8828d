import Crypto
public import Foundation
import SwiftASN1
public import X509

/// A throwaway certificate authority that issues attestation certificates for fixtures.
public struct TestCertificateAuthority: Sendable {
    public let root: Certificate
    private let rootKey: P256.Signing.PrivateKey

    /// Validity of everything it issues: 2020-01-01 to 2040-01-01.
    public static let notBefore = Date(timeIntervalSince1970: 1_577_836_800)
    public static let notAfter = Date(timeIntervalSince1970: 2_208_988_800)

    public init(name: String = "Test Attestation Root") throws {
        rootKey = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CountryName("US")
            OrganizationName("swift-passkeys tests")
            CommonName(name)
        }
        root = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(rootKey.publicKey),
            notValidBefore: Self.notBefore,
            notValidAfter: Self.notAfter,
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(rootKey)
        )
    }

    /// An attestation certificate for `key`. By default it meets the packed requirements of WebAuthn §8.2.1.
    public func issue(
        for key: Certificate.PublicKey,
        organizationalUnit: String = "Authenticator Attestation",
        isCertificateAuthority: Bool = false,
        aaguidExtension: [UInt8]? = nil,
        extraExtensions: [Certificate.Extension] = []
    ) throws -> Certificate {
        let subject = try DistinguishedName {
            CountryName("US")
            OrganizationName("swift-passkeys tests")
            OrganizationalUnitName(organizationalUnit)
            CommonName("Test Authenticator")
        }
        var extensions = try Certificate.Extensions {
            Critical(
                isCertificateAuthority
                    ? BasicConstraints.isCertificateAuthority(maxPathLength: nil)
                    : BasicConstraints.notCertificateAuthority
            )
        }
        if let aaguidExtension {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: aaguidExtension[...]))
            try extensions.append(
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4],
                    critical: false,
                    value: serializer.serializedBytes[...]
                )
            )
        }
        for ext in extraExtensions { try extensions.append(ext) }
        return try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: key,
            notValidBefore: Self.notBefore,
            notValidAfter: Self.notAfter,
            issuer: root.subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(rootKey)
        )
    }
}

extension Certificate {
    /// The DER encoding.
    public var derBytes: [UInt8] {
        var serializer = DER.Serializer()
        // Serializing a certificate we hold cannot fail.
        try! serializer.serialize(self)
        return serializer.serializedBytes
    }

    /// The PEM encoding (`-----BEGIN CERTIFICATE-----` …), as trust anchor files hold it.
    public var pemString: String {
        // Serializing a certificate we hold cannot fail.
        try! serializeAsPEM().pemString
    }
}
