import Foundation
import WebAuthn

/// The options JSON the raw entry points accept: the options at the top level, or wrapped in `{"publicKey": …}`
/// (as our server and `PublicKeyCredential.parse…OptionsFromJSON` callers pass them).
enum OptionsJSON {
    private struct Wrapped<Options: Decodable>: Decodable {
        let publicKey: Options
    }

    static func decode<Options: Decodable>(_ type: Options.Type, from text: String) throws(PasskeyError) -> Options {
        let bytes = Array(text.utf8)
        guard bytes.count <= WebAuthnJSON.maximumSize else {
            throw PasskeyError(.invalidInput, "The options JSON is larger than \(WebAuthnJSON.maximumSize) bytes.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw PasskeyError(.invalidInput, "The options are not a JSON object.")
        }
        do {
            if object["challenge"] == nil, object["publicKey"] is [String: Any] {
                return try WebAuthnJSON.decode(Wrapped<Options>.self, from: bytes).publicKey
            }
            return try WebAuthnJSON.decode(Options.self, from: bytes)
        } catch {
            throw PasskeyError(.invalidInput, "The options JSON is invalid: \(error.reason)", cause: error)
        }
    }
}
