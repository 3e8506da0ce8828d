import FuzzSupport
import WebAuthn

// Authenticator data (with attested credential data, COSE keys and extensions), and COSE keys alone.
@main
enum FuzzAuthenticatorDataMain {
    static func main() { runFuzzer(fuzzAuthenticatorData) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthenticatorData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    if let authenticatorData = try? AuthenticatorData(bytes: bytes) {
        precondition(authenticatorData.rawRepresentation == bytes)
        precondition(authenticatorData.rpIDHash.count == 32)
        if let key = authenticatorData.attestedCredentialData?.credentialPublicKey {
            _ = key.isValidSignature([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01], for: bytes)
        }
    }
    if let key = try? COSEKey(cborRepresentation: bytes) {
        _ = key.isValidSignature(Array(bytes.prefix(64)), for: bytes)
    }
    return 0
}
