import SwiftASN1
import X509

extension Certificate {
    /// The string values of a subject attribute (`C`, `O`, `OU`, `CN`, …).
    func subjectValues(_ type: ASN1ObjectIdentifier) -> [String] {
        subject.flatMap { $0 }.filter { $0.type == type }.compactMap { String($0.value) }
    }

    /// Whether basic constraints mark this certificate as a CA; nil when the extension is absent.
    func isCertificateAuthority() throws(WebAuthnError) -> Bool? {
        do {
            switch try extensions.basicConstraints {
            case .none: return nil
            case .some(.isCertificateAuthority): return true
            case .some(.notCertificateAuthority): return false
            }
        } catch {
            // Chromium's virtual authenticator encodes cA as an explicit DEFAULT FALSE (SEQUENCE { BOOLEAN FALSE }),
            // which DER forbids but whose meaning is unambiguous; accept exactly that encoding.
            if let ext = extensions[oid: .X509ExtensionID.basicConstraints],
                Array(ext.value) == [0x30, 0x03, 0x01, 0x01, 0x00]
            {
                return false
            }
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "The basic constraints extension of '\(subject)' cannot be decoded."
            )
        }
    }

    /// The `id-fido-gen-ce-aaguid` extension's AAGUID (FIDO Metadata, OID 1.3.6.1.4.1.45724.1.1.4), if present.
    func fidoAAGUID() throws(WebAuthnError) -> (aaguid: [UInt8], critical: Bool)? {
        guard let ext = extensions[oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]] else { return nil }
        do {
            let octets = try ASN1OctetString(derEncoded: ext.value)
            return (Array(octets.bytes), ext.critical)
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "The id-fido-gen-ce-aaguid extension is not an OCTET STRING."
            )
        }
    }
}
