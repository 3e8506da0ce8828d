import Foundation
import WebAuthn

/// Recognizing the input: JSON (a credential or client data), base64url text or raw bytes (an attestation object,
/// authenticator data or a COSE key).
extension InspectionReport {
    mutating func input(_ input: [UInt8]) throws(WebAuthnError) {
        guard input.count <= WebAuthnJSON.maximumSize else {
            throw WebAuthnError(
                .inputTooLarge,
                "The input is \(input.count) bytes; nothing WebAuthn inspects is larger than \(WebAuthnJSON.maximumSize)."
            )
        }
        // Text (UTF-8 of printable characters and white space) is JSON or base64url; anything else is raw bytes.
        let text = String(validating: input, as: UTF8.self).flatMap { text in
            text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || ($0.value >= 0x20 && $0.value != 0x7F) }
                ? text : nil
        }
        guard let text else {
            try binary(input)
            return
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") {
            try json(Array(trimmed.utf8))
            return
        }
        // Base64url, possibly wrapped over several lines, or copied from JSON with its quotes.
        var encoded = Substring(trimmed.unicodeScalars.filter { !$0.properties.isWhitespace }.map(String.init).joined())
        if encoded.count >= 2, encoded.hasPrefix("\""), encoded.hasSuffix("\"") {
            encoded = encoded.dropFirst().dropLast()
        }
        guard !encoded.isEmpty else {
            throw WebAuthnError(
                .unrecognizedInput,
                "The input is empty; pass a credential JSON, or base64url of an attestation object, authenticator data, client data or COSE key."
            )
        }
        try binary(try Base64URL.decode(encoded))
    }

    /// JSON: a credential (`PublicKeyCredential.toJSON()`) or client data.
    mutating func json(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard case .object(let members) = try WebAuthnJSON.decode(JSONValue.self, from: bytes) else {
            throw WebAuthnError(.malformedJSON, "The JSON is not an object.")
        }
        if case .object(let response)? = members["response"] {
            if response["signature"] != nil {
                try authenticationResponse(try AuthenticationResponseJSON(jsonBytes: bytes))
            } else if response["attestationObject"] != nil {
                try registrationResponse(try RegistrationResponseJSON(jsonBytes: bytes))
            } else {
                throw WebAuthnError(
                    .malformedJSON,
                    "The credential's 'response' has neither 'attestationObject' (a registration) nor 'signature' (an authentication)."
                )
            }
        } else if members["type"] != nil, members["challenge"] != nil {
            try clientData(bytes, source: "client data JSON")
        } else {
            throw WebAuthnError(
                .malformedJSON,
                "The JSON is neither a credential (PublicKeyCredential.toJSON(), with a 'response' member) nor client data (with 'type', 'challenge' and 'origin')."
            )
        }
    }

    /// Binary input: the structure it decodes as. When none fits, the error of the most likely one.
    mutating func binary(_ bytes: [UInt8]) throws(WebAuthnError) {
        if bytes.first == UInt8(ascii: "{") {
            try clientData(bytes, source: "clientDataJSON")
            return
        }
        let attestationError: WebAuthnError
        do throws(WebAuthnError) {
            try attestationObject(try AttestationObject(bytes: bytes), size: bytes.count)
            return
        } catch {
            attestationError = error
        }
        if let key = try? COSEKey(cborRepresentation: bytes) {
            heading("COSE public key (\(bytes.count) bytes)")
            coseKey(key, depth: 1)
            return
        }
        do throws(WebAuthnError) {
            try authenticatorData(try AuthenticatorData(bytes: bytes), source: "authenticator data")
        } catch {
            // A CBOR map (major type 5) was most likely meant as an attestation object.
            throw bytes.first.map({ $0 >> 5 == 5 }) == true ? attestationError : error
        }
    }
}
