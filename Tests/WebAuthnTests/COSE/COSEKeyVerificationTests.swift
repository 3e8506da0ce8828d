import Crypto
import PasskeyTesting
import Testing

@testable import WebAuthn

/// Each algorithm's COSE key decodes (WebAuthn §5.8.5) and verifies a signature made with its private key.
struct COSEKeyVerificationTests {
    static let algorithms: [COSEAlgorithmIdentifier] = [.es256, .es384, .es512, .edDSA, .rs256, .ps256]

    @Test("§5.8.5: a COSE key decodes and verifies its own signature", arguments: algorithms)
    func verifies(_ algorithm: COSEAlgorithmIdentifier) throws {
        let key = TestSigningKey.generate(algorithm)
        let cose = try COSEKey(cborRepresentation: key.coseKey)
        #expect(cose.algorithm == algorithm)
        #expect(cose.cborRepresentation == key.coseKey)
        let message = Array("authenticatorData || clientDataHash".utf8)
        let signature = key.sign(message)
        #expect(cose.isValidSignature(signature, for: message))
        #expect(!cose.isValidSignature(signature, for: message + [0]))
        var tampered = signature
        tampered[tampered.count / 2] ^= 0x01
        #expect(!cose.isValidSignature(tampered, for: message))
        #expect(!cose.isValidSignature([], for: message))
    }

    @Test(
        "§5.8.5: the key type follows from the algorithm",
        arguments: [
            (COSEAlgorithmIdentifier.es256, COSEKey.KeyType.ec2), (.es384, .ec2), (.es512, .ec2), (.edDSA, .okp),
            (.rs256, .rsa), (.ps256, .rsa),
        ]
    )
    func keyType(_ algorithm: COSEAlgorithmIdentifier, _ keyType: COSEKey.KeyType) throws {
        #expect(try COSEKey(cborRepresentation: TestSigningKey.generate(algorithm).coseKey).keyType == keyType)
    }

    @Test("A signature by another key of the same algorithm does not verify", arguments: algorithms)
    func otherKey(_ algorithm: COSEAlgorithmIdentifier) throws {
        let cose = try COSEKey(cborRepresentation: TestSigningKey.generate(algorithm).coseKey)
        let message = Array("message".utf8)
        #expect(!cose.isValidSignature(TestSigningKey.generate(algorithm).sign(message), for: message))
    }

    @Test("RFC 9864: Ed25519 (-19), the fully specified identifier, verifies like EdDSA")
    func ed25519FullySpecified() throws {
        let privateKey = Curve25519.Signing.PrivateKey()
        let cbor = CBOREncoder.encode(
            .map([
                CBORMapEntry(CBORValue(1), CBORValue(1)), CBORMapEntry(CBORValue(3), CBORValue(-19)),
                CBORMapEntry(CBORValue(-1), CBORValue(6)),
                CBORMapEntry(CBORValue(-2), .bytes(Array(privateKey.publicKey.rawRepresentation))),
            ])
        )
        let cose = try COSEKey(cborRepresentation: cbor)
        #expect(cose.algorithm == .ed25519)
        let message = Array("message".utf8)
        #expect(cose.isValidSignature(Array(try privateKey.signature(for: message)), for: message))
    }

    @Test("An RSA key verifies PKCS#1 v1.5 only under RS256 and PSS only under PS256")
    func rsaPaddingFollowsAlgorithm() throws {
        let pkcs1 = TestSigningKey.generate(.rs256)
        guard case .rsa(let privateKey, _) = pkcs1 else {
            Issue.record("generate(.rs256) did not make an RSA key")
            return
        }
        let message = Array("message".utf8)
        let pss = TestSigningKey.rsa(privateKey, pss: true)
        let rs256 = try COSEKey(cborRepresentation: pkcs1.coseKey)
        let ps256 = try COSEKey(cborRepresentation: pss.coseKey)
        #expect(rs256.isValidSignature(pkcs1.sign(message), for: message))
        #expect(!rs256.isValidSignature(pss.sign(message), for: message))
        #expect(ps256.isValidSignature(pss.sign(message), for: message))
        #expect(!ps256.isValidSignature(pkcs1.sign(message), for: message))
    }

    @Test("Two keys are equal exactly when their CBOR encodings are")
    func equality() throws {
        let key = TestSigningKey.generate(.es256)
        #expect(try COSEKey(cborRepresentation: key.coseKey) == COSEKey(cborRepresentation: key.coseKey))
        #expect(
            try COSEKey(cborRepresentation: key.coseKey)
                != COSEKey(cborRepresentation: TestSigningKey.generate(.es256).coseKey)
        )
    }
}
