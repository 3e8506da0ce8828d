import FuzzSupport
import WebAuthn

// The strict CBOR decoder with its default limits, then with canonical order relaxed (as for attestation
// objects). Whatever decodes must re-encode canonically to the same bytes when canonical order was required.
@main
enum FuzzCBORMain {
    static func main() { runFuzzer(fuzzCBOR) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    if let value = try? CBORDecoder().decode(bytes) {
        let encoded = CBOREncoder.encode(value)
        // Floats may have a shorter canonical form than the input used, so compare only float-free items.
        if !containsFloat(value), encoded != bytes {
            fatalError("CBOR round trip changed the bytes: \(bytes) → \(encoded)")
        }
    }
    var relaxed = CBORLimits.default
    relaxed.requireCanonicalMapOrder = false
    _ = try? CBORDecoder(limits: relaxed).decode(bytes)
    return 0
}

private func containsFloat(_ value: CBORValue) -> Bool {
    switch value {
    case .float: true
    case .array(let items): items.contains(where: containsFloat)
    case .map(let entries): entries.contains { containsFloat($0.key) || containsFloat($0.value) }
    default: false
    }
}
