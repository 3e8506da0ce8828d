import Crypto
public import X509

extension Certificate {
    /// The attestation certificate key identifier that FIDO metadata lists U2F authenticators by
    /// (`attestationCertificateKeyIdentifiers`, FIDO Metadata Service §3.1.1): the SHA-1 of the value of the
    /// certificate's subjectPublicKey BIT STRING, without tag, length and unused-bits octet (RFC 5280 §4.2.1.2,
    /// method 1), as lower-case hex. swift-certificates gives that value in its canonical form (for EC keys, the
    /// uncompressed point, the form U2F attestation certificates carry).
    public var attestationCertificateKeyIdentifier: String {
        Insecure.SHA1.hash(data: publicKey.subjectPublicKeyInfoBytes).map { String($0, radix: 16).leftPadded(to: 2) }
            .joined()
    }
}
