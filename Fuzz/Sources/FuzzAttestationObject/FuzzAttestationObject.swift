import FuzzSupport
import WebAuthn

// The attestation object: the relaxed-order CBOR map of fmt, attStmt and authData, and the authenticator data in it.
@main
enum FuzzAttestationObjectMain {
    static func main() { runFuzzer(fuzzAttestationObject) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestationObject(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    if let object = try? AttestationObject(bytes: bytes) {
        precondition(object.statement.mapEntries != nil || object.statement.arrayValue != nil)
        precondition(object.authenticatorData.rawRepresentation.count >= 37)
    }
    return 0
}
