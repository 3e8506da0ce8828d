import Foundation
import FuzzSupport

@testable import WebAuthn

// Differential target for the decoding fast paths (debug builds enable testing, so internals are visible):
// whenever FastJSON decodes an input, JSONDecoder must decode it to the same value; and the unrolled
// base64url decoder must agree with the reference character-by-character decoder on value and error.
@main
enum FuzzJSONFastPathMain {
    static func main() { runFuzzer(fuzzJSONFastPath) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFastPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)

    if let fast = AuthenticationResponseJSON(fastJSON: bytes) {
        let reference = try? JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(bytes))
        precondition(reference == fast, "AuthenticationResponseJSON fast path differs from JSONDecoder")
    }
    if let fast = RegistrationResponseJSON(fastJSON: bytes) {
        let reference = try? JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(bytes))
        precondition(reference == fast, "RegistrationResponseJSON fast path differs from JSONDecoder")
    }
    // CollectedClientData takes the fast path when FastJSON scans the input and it has no tokenBinding.
    let scanned =
        FastJSON.withObject(bytes) { json, members in json.member("tokenBinding", in: members) == nil ? true : nil }
        ?? false
    if scanned, let clientData = try? CollectedClientData(jsonBytes: bytes) {
        let reference = try? JSONDecoder().decode(ReferenceClientData.self, from: Data(bytes))
        precondition(
            reference?.type == clientData.type && reference?.challenge == clientData.challenge
                && reference?.origin == clientData.origin && reference?.crossOrigin == clientData.crossOrigin
                && reference?.topOrigin == clientData.topOrigin && clientData.tokenBinding == nil,
            "CollectedClientData fast path differs from JSONDecoder"
        )
    }

    let text = String(decoding: bytes, as: UTF8.self)
    let new = Result { () throws(WebAuthnError) in try Base64URL.decode(text) }
    let old = Result { () throws(WebAuthnError) in try referenceBase64URLDecode(text) }
    switch (new, old) {
    case (.success(let a), .success(let b)): precondition(a == b, "base64url decoders differ")
    case (.failure(let a), .failure(let b)):
        precondition(a.code == b.code && a.reason == b.reason, "base64url errors differ")
    default: preconditionFailure("base64url decoders disagree on validity")
    }
    return 0
}

private struct ReferenceClientData: Decodable {
    let type: String
    let challenge: String
    let origin: String
    let crossOrigin: Bool?
    let topOrigin: String?
}

private let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
private let referenceTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
}()

/// The character-by-character decoder that the unrolled one replaced, kept as the reference.
private func referenceBase64URLDecode(_ text: String) throws(WebAuthnError) -> [UInt8] {
    var utf8 = Array(text.utf8)
    if utf8.count % 4 == 0, utf8.last == UInt8(ascii: "=") {
        utf8.removeLast()
        if utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
    }
    guard utf8.count % 4 != 1 else {
        throw WebAuthnError(
            .invalidBase64URL,
            "A base64url string cannot have \(utf8.count) significant characters; send the value unpadded and unmodified."
        )
    }
    var output = [UInt8]()
    var accumulator: UInt32 = 0
    var bits = 0
    for byte in utf8 {
        let value = referenceTable[Int(byte)]
        guard value != 0xFF else {
            throw WebAuthnError(
                .invalidBase64URL,
                "The character '\(Unicode.Scalar(byte))' is not in the base64url alphabet (A–Z, a–z, 0–9, '-', '_'); encode binary fields as unpadded base64url."
            )
        }
        accumulator = accumulator << 6 | UInt32(value)
        bits += 6
        if bits >= 8 {
            bits -= 8
            output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        }
    }
    guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else {
        throw WebAuthnError(
            .invalidBase64URL,
            "The base64url string has non-zero padding bits; it is not a canonical encoding."
        )
    }
    return output
}
