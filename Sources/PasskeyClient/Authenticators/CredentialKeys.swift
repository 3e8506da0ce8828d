import Crypto

/// Where an authenticator's credential keys live and how they sign: P-256 keys in software
/// (``SoftwareCredentialKeys``) or in the Secure Enclave. A key is kept as an opaque `stored` representation
/// inside the ``KeyStore`` entry of its credential.
public protocol CredentialKeys: Sendable {
    /// Makes a new P-256 key.
    /// - Returns: what to store (`stored`) and the public key as an uncompressed point (`04 ‖ x ‖ y`).
    func makeKey(
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> (stored: [UInt8], publicKey: [UInt8])

    /// Signs `data` with ES256 (ECDSA P-256 with SHA-256) and returns the DER signature.
    func sign(
        _ data: [UInt8],
        stored: [UInt8],
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> [UInt8]
}

/// P-256 keys made with swift-crypto; `stored` is the raw private scalar (kept encrypted by the key store).
public struct SoftwareCredentialKeys: CredentialKeys {
    public init() {}

    public func makeKey(
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> (stored: [UInt8], publicKey: [UInt8]) {
        let key = P256.Signing.PrivateKey()
        return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
    }

    public func sign(
        _ data: [UInt8],
        stored: [UInt8],
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> [UInt8] {
        do {
            let key = try P256.Signing.PrivateKey(rawRepresentation: stored)
            return Array(try key.signature(for: data).derRepresentation)
        } catch {
            throw PasskeyError(
                .keyStoreCorrupt,
                "A stored private key is not a valid P-256 key; the key store is damaged.",
                cause: error
            )
        }
    }
}
