import SwiftASN1
import X509

/// §8.2.1 Certificate requirements for packed attestation statements.
enum PackedCertificateRequirements {
    static func check(_ certificate: Certificate, statement: AttestationStatement) throws(WebAuthnError) {
        typealias Attribute = ASN1ObjectIdentifier.RDNAttributeType
        guard certificate.version == .v3 else {
            throw statement.certificateFailure("the attestation certificate must be X.509 version 3.")
        }
        let country = certificate.subjectValues(Attribute.countryName)
        guard country.count == 1, country[0].count == 2 else {
            throw statement.certificateFailure(
                "the attestation certificate's Subject-C must be a two-letter ISO 3166 code."
            )
        }
        guard certificate.subjectValues(Attribute.organizationName).first?.isEmpty == false else {
            throw statement.certificateFailure(
                "the attestation certificate's Subject-O must name the authenticator vendor."
            )
        }
        guard certificate.subjectValues(Attribute.organizationalUnitName) == ["Authenticator Attestation"] else {
            throw statement.certificateFailure(
                "the attestation certificate's Subject-OU must be \"Authenticator Attestation\"."
            )
        }
        guard certificate.subjectValues(Attribute.commonName).first?.isEmpty == false else {
            throw statement.certificateFailure("the attestation certificate's Subject-CN must be present.")
        }
        guard try certificate.isCertificateAuthority() == false else {
            throw statement.certificateFailure(
                "the attestation certificate's basic constraints must say it is not a CA."
            )
        }
    }
}
