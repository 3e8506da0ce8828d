import Crypto
import CryptoExtras
public import Foundation
public import WebAuthn
public import X509

/// A stand-in for the FIDO Metadata Service: a root certificate (what a relying party configures), a signing
/// certificate it issued, and BLOBs signed with that certificate's key, built from entries a test chooses.
///
/// ```swift
/// let service = try TestMetadataService()
/// let blob = try service.blob(entries: [TestMetadataService.entry(aaguid: authenticator.aaguid, roots: [ca.root])])
/// let metadata = try await MetadataBLOB(jws: blob, rootCertificates: [service.root], at: now)
/// ```
public struct TestMetadataService: Sendable {
    /// How BLOBs are signed.
    public enum Algorithm: String, Sendable {
        case es256 = "ES256"
        case rs256 = "RS256"
        case ps256 = "PS256"
    }

    public let algorithm: Algorithm
    public let root: Certificate
    public let signingCertificate: Certificate
    private let signingKey: SigningKey

    private enum SigningKey: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    /// - Parameter signingCertificateNotAfter: the end of the signing certificate's validity (to test expiry).
    public init(
        algorithm: Algorithm = .es256,
        signingCertificateNotAfter: Date = TestCertificateAuthority.notAfter
    ) throws {
        self.algorithm = algorithm
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName("swift-passkeys tests")
            CommonName("Test Metadata Root \(UInt32.random(in: 0...UInt32.max))")
        }
        root = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(rootKey.publicKey),
            notValidBefore: TestCertificateAuthority.notBefore,
            notValidAfter: TestCertificateAuthority.notAfter,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(rootKey)
        )
        let publicKey: Certificate.PublicKey
        switch algorithm {
        case .es256:
            let key = P256.Signing.PrivateKey()
            (signingKey, publicKey) = (.p256(key), .init(key.publicKey))
        case .rs256, .ps256:
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            (signingKey, publicKey) = (.rsa(key), .init(key.publicKey))
        }
        signingCertificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: publicKey,
            notValidBefore: TestCertificateAuthority.notBefore,
            notValidAfter: signingCertificateNotAfter,
            issuer: rootName,
            subject: try DistinguishedName {
                CountryName("US")
                OrganizationName("swift-passkeys tests")
                CommonName("Test Metadata BLOB Signer")
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
            issuerPrivateKey: .init(rootKey)
        )
    }

    /// A BLOB whose payload lists `entries` (see ``entry(aaguid:keyIdentifiers:description:roots:statuses:)``).
    public func blob(entries: [[String: Any]], number: Int = 1, nextUpdate: String = "2030-01-01") throws -> [UInt8] {
        try blob(payload: [
            "legalHeader": "Test metadata: use it only in tests.", "no": number, "nextUpdate": nextUpdate,
            "entries": entries,
        ])
    }

    /// A BLOB with this payload object.
    public func blob(payload: [String: Any], header: [String: Any] = [:]) throws -> [UInt8] {
        sign(payloadJSON: Array(try JSONSerialization.data(withJSONObject: payload)), header: header)
    }

    /// A compact JWS of any payload bytes, signed with the signing key. The header holds `alg` and `x5c` (the signing
    /// certificate); members of `header` are added or replace them.
    public func sign(payloadJSON: [UInt8], header: [String: Any] = [:]) -> [UInt8] {
        var fields: [String: Any] = [
            "alg": algorithm.rawValue, "typ": "JWT",
            "x5c": [Data(signingCertificate.derBytes).base64EncodedString()],
        ]
        fields.merge(header) { $1 }
        // An object of strings and arrays always serializes.
        let headerJSON = try! JSONSerialization.data(withJSONObject: fields)
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)
        let data = Array(signingInput.utf8)
        let signature: [UInt8]
        switch (signingKey, algorithm) {
        case (.p256(let key), _):
            signature = Array(try! key.signature(for: data).rawRepresentation)
        case (.rsa(let key), let algorithm):
            let padding: _RSA.Signing.Padding = algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5
            signature = Array(try! key.signature(for: data, padding: padding).rawRepresentation)
        }
        return Array((signingInput + "." + Base64URL.encode(signature)).utf8)
    }

    /// A payload entry: a FIDO2 model when `aaguid` is given, a U2F model by `keyIdentifiers` otherwise.
    /// `statuses` become status reports in that order, each effective from 2020-01-01.
    public static func entry(
        aaguid: [UInt8]? = nil,
        keyIdentifiers: [String] = [],
        description: String = "Test Authenticator",
        roots: [Certificate],
        statuses: [AuthenticatorStatus] = [.fidoCertified]
    ) throws -> [String: Any] {
        var statement: [String: Any] = [
            "description": description,
            "attestationRootCertificates": roots.map { Data($0.derBytes).base64EncodedString() },
        ]
        var entry: [String: Any] = [
            "metadataStatement": statement,
            "statusReports": statuses.map { ["status": $0.rawValue, "effectiveDate": "2020-01-01"] },
            "timeOfLastStatusChange": "2020-01-01",
        ]
        if let aaguid {
            let uuid = try AAGUID(bytes: aaguid).description
            entry["aaguid"] = uuid
            statement["aaguid"] = uuid
            entry["metadataStatement"] = statement
        }
        if !keyIdentifiers.isEmpty { entry["attestationCertificateKeyIdentifiers"] = keyIdentifiers }
        return entry
    }
}
