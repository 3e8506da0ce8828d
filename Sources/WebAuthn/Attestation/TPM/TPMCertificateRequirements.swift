import SwiftASN1
import X509

/// §8.3.1 TPM attestation statement certificate requirements, checked on the AIK certificate (`x5c[0]`).
enum TPMCertificateRequirements {
    /// tcg-kp-AIKCertificate.
    static let aikCertificateUsage: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]

    /// Checks the requirements and returns the TPM the certificate describes.
    @discardableResult
    static func check(
        _ certificate: Certificate,
        statement: AttestationStatement
    ) throws(WebAuthnError) -> TPMDeviceAttributes {
        // §8.3.1: Version MUST be set to 3.
        guard certificate.version == .v3 else {
            throw statement.certificateFailure("the AIK certificate must be X.509 version 3.")
        }
        // §8.3.1: Subject field MUST be set to empty.
        guard certificate.subject.isEmpty else {
            throw statement.certificateFailure(
                "the AIK certificate's subject must be empty, not '\(certificate.subject)'."
            )
        }
        // §8.3.1: the Subject Alternative Name extension is set as in the TCG EK Credential Profile §3.2.9
        // (it may be critical, as it must be when the subject is empty).
        let names: SubjectAlternativeNames?
        do {
            names = try certificate.extensions.subjectAlternativeNames
        } catch {
            throw statement.certificateFailure(
                "the AIK certificate's subject alternative name cannot be decoded (\(error))."
            )
        }
        guard let names else {
            throw statement.certificateFailure("the AIK certificate has no subject alternative name extension.")
        }
        let device: TPMDeviceAttributes
        do throws(TPMParseError) {
            device = try TPMDeviceAttributes(names)
        } catch {
            throw statement.certificateFailure("in the AIK certificate, \(error.reason)")
        }
        guard TPMManufacturer.named(device.manufacturer) != nil else {
            throw statement.certificateFailure(
                "the AIK certificate names TPM manufacturer '\(device.manufacturer)', which is not a TCG-registered vendor id."
            )
        }
        // §8.3.1: Extended Key Usage MUST contain tcg-kp-AIKCertificate (2.23.133.8.3).
        let usages: ExtendedKeyUsage?
        do {
            usages = try certificate.extensions.extendedKeyUsage
        } catch {
            throw statement.certificateFailure("the AIK certificate's extended key usage cannot be decoded (\(error)).")
        }
        guard let usages, usages.contains(ExtendedKeyUsage.Usage(oid: aikCertificateUsage)) else {
            throw statement.certificateFailure(
                "the AIK certificate's extended key usage must contain tcg-kp-AIKCertificate (2.23.133.8.3)."
            )
        }
        // §8.3.1: Basic Constraints MUST have the CA component set to false.
        guard try certificate.isCertificateAuthority() == false else {
            throw statement.certificateFailure(
                "the AIK certificate's basic constraints must be present and say it is not a CA."
            )
        }
        return device
    }
}
