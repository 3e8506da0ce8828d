import FuzzSupport
import WebAuthn

// Full authentication verification (§7.2) from the JSON text, against a record holding the header's
// credential public key under the response's own credential id.
@main
enum FuzzAuthenticationJSONMain {
    static func main() { runFuzzer(fuzzAuthenticationJSON) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthenticationJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let input = FuzzInput(bytes), let response = try? AuthenticationResponseJSON(jsonBytes: input.json),
        let key = try? COSEKey(cborRepresentation: input.credentialPublicKey)
    else { return 0 }
    let (challenge, origins) = input.expectations(clientDataJSON: response.response.clientDataJSON.bytes)
    let ceremony = AuthenticationCeremony(
        challenge: challenge,
        relyingPartyID: input.relyingPartyID,
        origins: origins,
        user: .credentialOnly
    )
    let record = CredentialRecord(id: response.rawId.bytes, publicKey: key, signCount: 0)
    _ = try? ceremony.verify(response, credential: record)
    return 0
}
