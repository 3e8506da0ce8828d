import FuzzSupport
import WebAuthn

// Full registration verification (§7.1) from the JSON text: decoding, client data, attestation object,
// authenticator data, COSE key and the attestation statement of every supported format.
@main
enum FuzzRegistrationJSONMain {
    static func main() { runFuzzer(fuzzRegistrationJSON) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistrationJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let input = FuzzInput(bytes), let response = try? RegistrationResponseJSON(jsonBytes: input.json) else {
        return 0
    }
    let (challenge, origins) = input.expectations(clientDataJSON: response.response.clientDataJSON.bytes)
    let ceremony = RegistrationCeremony(challenge: challenge, relyingPartyID: input.relyingPartyID, origins: origins)
    runBlocking {
        _ = try? await ceremony.verify(response, at: input.time)
    }
    return 0
}
