import Foundation
import SwiftASN1
import WebAuthn
import X509

/// An inspection that stopped at a decoding error, with the text rendered before it.
struct InspectionFailure: Error {
    let partialText: String
    let error: CommandLineError
}

/// The text rendering of `passkeys inspect`: a pure function from the input's bytes to a readable report.
enum Inspection {
    /// Recognizes what `input` holds and renders it: a credential JSON (registration or authentication), or an
    /// attestation object, authenticator data, client data or COSE key (base64url text, raw bytes, or JSON for
    /// client data).
    static func render(_ input: [UInt8]) throws(InspectionFailure) -> String {
        var report = InspectionReport()
        do throws(WebAuthnError) {
            try report.input(input)
        } catch {
            throw InspectionFailure(partialText: report.text, error: CommandLineError(error))
        }
        return report.text
    }
}

/// Builds the report line by line; each `render…` method decodes one structure and describes it.
struct InspectionReport {
    private(set) var lines: [String] = []

    var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// The column at which values start, relative to the label's indentation.
    static let labelWidth = 25

    mutating func heading(_ title: String) {
        if !lines.isEmpty { lines.append("") }
        lines.append(title)
    }

    mutating func field(_ label: String, _ value: String, depth: Int = 1) {
        let indent = String(repeating: "  ", count: depth)
        let head = label.isEmpty ? "" : label + ":"
        let padded =
            head.count < Self.labelWidth
            ? head + String(repeating: " ", count: Self.labelWidth - head.count) : head + " "
        let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false)
        lines.append((indent + padded + (valueLines.first.map(String.init) ?? "")).trimmingTrailingSpaces())
        let continuation = String(repeating: " ", count: indent.count + padded.count)
        for line in valueLines.dropFirst() { lines.append(continuation + line) }
    }

    // MARK: Recognizing the input

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

    // MARK: Credentials

    mutating func registrationResponse(_ credential: RegistrationResponseJSON) throws(WebAuthnError) {
        heading("Registration response (PublicKeyCredential from navigator.credentials.create())")
        credentialIdentity(
            id: credential.id,
            rawId: credential.rawId.bytes,
            type: credential.type,
            attachment: credential.authenticatorAttachment
        )
        let response = credential.response
        if let transports = response.transports {
            field("transports", transports.isEmpty ? "(none)" : transports.map(\.rawValue).joined(separator: ", "))
        }
        if let algorithm = response.publicKeyAlgorithm { field("publicKeyAlgorithm", Self.algorithm(algorithm)) }
        clientExtensionResults(credential.clientExtensionResults)
        try clientData(response.clientDataJSON.bytes, source: "clientDataJSON")
        let object = try AttestationObject(bytes: response.attestationObject.bytes)
        try attestationObject(object, size: response.attestationObject.bytes.count, rawId: credential.rawId.bytes)
        if let separate = response.authenticatorData {
            field(
                "response.authenticatorData",
                separate.bytes == object.authenticatorData.rawRepresentation
                    ? "the same bytes as authData" : "DIFFERS from the attestation object's authData"
            )
        }
    }

    mutating func authenticationResponse(_ credential: AuthenticationResponseJSON) throws(WebAuthnError) {
        heading("Authentication response (PublicKeyCredential from navigator.credentials.get())")
        credentialIdentity(
            id: credential.id,
            rawId: credential.rawId.bytes,
            type: credential.type,
            attachment: credential.authenticatorAttachment
        )
        let response = credential.response
        if let userHandle = response.userHandle, !userHandle.bytes.isEmpty {
            field(
                "userHandle",
                "\(userHandle.base64URL) (\(Self.count(userHandle.bytes.count, "byte"))\(Self.printableText(userHandle.bytes).map { ", UTF-8 \"\($0)\"" } ?? ""))"
            )
        } else {
            field("userHandle", "(absent: the user is identified by the credential id)")
        }
        field("signature", Self.bytesSummary(response.signature.bytes))
        clientExtensionResults(credential.clientExtensionResults)
        try clientData(response.clientDataJSON.bytes, source: "clientDataJSON")
        try authenticatorData(
            try AuthenticatorData(bytes: response.authenticatorData.bytes),
            source: "authenticatorData"
        )
    }

    mutating func credentialIdentity(
        id: String,
        rawId: [UInt8],
        type: PublicKeyCredentialType,
        attachment: AuthenticatorAttachment?
    ) {
        field("id", id)
        field(
            "rawId",
            Base64URL.encode(rawId) == id
                ? "same as id (\(Self.count(rawId.count, "byte")))"
                : "\(Base64URL.encode(rawId)) (DIFFERS from id: verification fails with CREDENTIAL_ID_MISMATCH)"
        )
        field("type", type.rawValue)
        field("authenticatorAttachment", attachment?.rawValue ?? "(absent)")
    }

    mutating func clientExtensionResults(_ results: [String: JSONValue]) {
        field("clientExtensionResults", results.isEmpty ? "{}" : Self.jsonText(.object(results)))
    }

    // MARK: Client data

    mutating func clientData(_ bytes: [UInt8], source: String) throws(WebAuthnError) {
        let data = try CollectedClientData(jsonBytes: bytes)
        heading("Client data (\(source), \(Self.count(bytes.count, "byte")))")
        let ceremony =
            switch data.type {
            case "webauthn.create": " (registration)"
            case "webauthn.get": " (authentication)"
            default: ""
            }
        field("type", data.type + ceremony)
        field("origin", data.origin)
        let challenge =
            (try? Base64URL.decode(data.challenge)).map { "(\(Self.count($0.count, "byte")))" }
            ?? "(not valid base64url)"
        field("challenge", "\(data.challenge) \(challenge)")
        field("crossOrigin", data.crossOrigin.map { String($0) } ?? "(absent)")
        field("topOrigin", data.topOrigin ?? "(absent)")
        if let tokenBinding = data.tokenBinding {
            field("tokenBinding", tokenBinding.status + (tokenBinding.id.map { ", id \($0)" } ?? ""))
        }
        let standard: Set<String> = ["type", "challenge", "origin", "crossOrigin", "topOrigin", "tokenBinding"]
        if case .object(let members)? = try? WebAuthnJSON.decode(JSONValue.self, from: bytes) {
            for name in members.keys.sorted() where !standard.contains(name) {
                field(name, Self.jsonText(members[name] ?? .null))
            }
        }
    }

    // MARK: Attestation object

    mutating func attestationObject(_ object: AttestationObject, size: Int, rawId: [UInt8]? = nil) throws(WebAuthnError)
    {
        heading("Attestation object (\(Self.count(size, "byte")))")
        field(
            "fmt",
            object.format.rawValue
                + (AttestationFormat.supported.contains(object.format) ? "" : " (not a supported format)")
        )
        if object.statement.mapEntries?.isEmpty == true {
            field("attStmt", "{} (empty)")
        } else {
            field("attStmt", "")
            statementFields(object.statement, format: object.format, depth: 2)
        }
        try authenticatorData(object.authenticatorData, source: "authData", rawId: rawId)
    }

    /// The members of an attestation statement (or, for `compound`, its list of statements).
    mutating func statementFields(_ statement: CBORValue, format: AttestationFormat, depth: Int) {
        if let items = statement.arrayValue {
            for (index, item) in items.enumerated() {
                let nestedFormat = item[text: "fmt"]?.textValue.map(AttestationFormat.init(rawValue:)) ?? format
                field("[\(index)]", nestedFormat.rawValue, depth: depth)
                if let nested = item[text: "attStmt"] {
                    statementFields(nested, format: nestedFormat, depth: depth + 1)
                }
            }
            return
        }
        for entry in statement.mapEntries ?? [] {
            let label = entry.key.textValue ?? Self.cborText(entry.key)
            switch (label, entry.value) {
            case ("alg", let value) where value.intValue != nil:
                field(label, Self.algorithm(COSEAlgorithmIdentifier(rawValue: value.intValue ?? 0)), depth: depth)
            case ("x5c", .array(let items)):
                field(label, Self.count(items.count, "certificate"), depth: depth)
                for (index, item) in items.enumerated() {
                    certificate(item.bytesValue ?? [], index: index, depth: depth + 1)
                }
            case ("response", .bytes(let jws)) where format == .androidSafetyNet:
                safetyNetResponse(jws, depth: depth)
            default:
                cbor(label, entry.value, depth: depth)
            }
        }
    }

    mutating func certificate(_ der: [UInt8], index: Int, depth: Int) {
        guard let certificate = try? Certificate(derEncoded: der) else {
            field("[\(index)]", "not a valid DER X.509 certificate (\(Self.count(der.count, "byte")))", depth: depth)
            return
        }
        let subject = certificate.subject.description
        field("[\(index)] subject", subject.isEmpty ? "(empty)" : subject, depth: depth)
        field(
            "    issuer",
            certificate.issuer.description + (certificate.issuer == certificate.subject ? " (self-issued)" : ""),
            depth: depth
        )
        field(
            "    validity",
            "\(Self.time(certificate.notValidBefore)) to \(Self.time(certificate.notValidAfter))",
            depth: depth
        )
        field(
            "    serial",
            certificate.serialNumber.bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: ":"),
            depth: depth
        )
        if let names = try? certificate.extensions.subjectAlternativeNames {
            field("    subjectAltName", names.description, depth: depth)
        }
        let isCA: String
        switch try? certificate.extensions.basicConstraints {
        case .isCertificateAuthority?: isCA = "yes"
        case .notCertificateAuthority?: isCA = "no"
        case nil: isCA = "(no basic constraints)"
        }
        field("    CA", isCA, depth: depth)
    }

    /// SafetyNet's `response`: a JWS whose header carries the certificate chain and whose payload the attestation.
    mutating func safetyNetResponse(_ jws: [UInt8], depth: Int) {
        let parts = String(decoding: jws, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let header = try? WebAuthnJSON.decode(JSONValue.self, from: Base64URL.decode(parts[0])),
            let payload = try? WebAuthnJSON.decode(JSONValue.self, from: Base64URL.decode(parts[1]))
        else {
            field("response", "\(Self.count(jws.count, "byte")), not a compact JWS", depth: depth)
            return
        }
        field("response", "JWS, \(Self.count(jws.count, "byte"))", depth: depth)
        if case .object(let members) = header {
            for name in members.keys.sorted() {
                if name == "x5c", case .array(let items)? = members[name] {
                    field("header x5c", Self.count(items.count, "certificate"), depth: depth + 1)
                    for (index, item) in items.enumerated() {
                        guard case .string(let base64) = item, let der = Data(base64Encoded: base64) else { continue }
                        certificate(Array(der), index: index, depth: depth + 2)
                    }
                } else {
                    field("header \(name)", Self.jsonText(members[name] ?? .null), depth: depth + 1)
                }
            }
        }
        if case .object(let members) = payload {
            for name in members.keys.sorted() { field(name, Self.jsonText(members[name] ?? .null), depth: depth + 1) }
        }
    }

    // MARK: Authenticator data

    mutating func authenticatorData(
        _ data: AuthenticatorData,
        source: String,
        rawId: [UInt8]? = nil
    ) throws(WebAuthnError) {
        heading("Authenticator data (\(source), \(Self.count(data.rawRepresentation.count, "byte")))")
        field("rpIdHash", Self.hex(data.rpIDHash))
        field("flags", Self.flags(data.flags))
        field("signCount", String(data.signCount))
        if let credential = data.attestedCredentialData {
            field(
                "AAGUID",
                credential.aaguid.description
                    + (credential.aaguid == .zero ? " (zero: no authenticator model given)" : "")
            )
            var id =
                "\(Base64URL.encode(credential.credentialID)) (\(Self.count(credential.credentialID.count, "byte")))"
            if let rawId { id += credential.credentialID == rawId ? ", same as rawId" : ", DIFFERS from rawId" }
            field("credential id", id)
            field("public key", "")
            coseKey(credential.credentialPublicKey, depth: 2)
        }
        if let extensions = data.extensions {
            field("extensions", "")
            for entry in extensions.mapEntries ?? [] {
                cbor(entry.key.textValue ?? Self.cborText(entry.key), entry.value, depth: 2)
            }
        }
    }

    static func flags(_ flags: AuthenticatorDataFlags) -> String {
        let named: [(String, AuthenticatorDataFlags)] = [
            ("UP", .userPresent), ("UV", .userVerified), ("BE", .backupEligible),
            ("BS", .backupState), ("AT", .attestedCredentialData), ("ED", .extensionData),
        ]
        var text = "0x" + String(flags.rawValue, radix: 16).leftPadded(to: 2) + "  "
        text += named.map { "\($0.0)=\(flags.contains($0.1) ? 1 : 0)" }.joined(separator: " ")
        let reserved = flags.rawValue & 0b0010_0010
        if reserved != 0 { text += "  reserved bits set (0x\(String(reserved, radix: 16).leftPadded(to: 2)))" }
        return text
    }

    // MARK: COSE keys

    mutating func coseKey(_ key: COSEKey, depth: Int) {
        let keyType =
            switch key.keyType {
            case .ec2: "EC2 (2)"
            case .okp: "OKP (1)"
            case .rsa: "RSA (3)"
            }
        field("kty", keyType, depth: depth)
        field("alg", Self.algorithm(key.algorithm), depth: depth)
        switch key.parameters {
        case .ec2(let curve, _, _), .okp(let curve, _):
            field("crv", "\(Self.curveName(curve)) (\(curve.rawValue))", depth: depth)
            field("key size", "\(Self.curveBits(curve)) bits", depth: depth)
        case .rsa(let n, let e):
            field("key size", "\(Self.bitLength(n)) bits", depth: depth)
            field(
                "exponent",
                e.count <= 8 ? String(e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) : Self.hex(e),
                depth: depth
            )
        }
        field("base64url", Base64URL.encode(key.cborRepresentation) + "\n(COSE; pass it to --public-key)", depth: depth)
    }

    static func curveName(_ curve: COSEKey.Curve) -> String {
        switch curve {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        case .ed25519: "Ed25519"
        }
    }

    static func curveBits(_ curve: COSEKey.Curve) -> Int {
        switch curve {
        case .p256, .ed25519: 256
        case .p384: 384
        case .p521: 521
        }
    }

    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    // MARK: Generic CBOR

    mutating func cbor(_ label: String, _ value: CBORValue, depth: Int) {
        switch value {
        case .array(let items):
            field(label, Self.count(items.count, "item"), depth: depth)
            for (index, item) in items.enumerated() { cbor("[\(index)]", item, depth: depth + 1) }
        case .map(let entries):
            field(label, entries.isEmpty ? "{}" : "", depth: depth)
            for entry in entries {
                cbor(entry.key.textValue ?? Self.cborText(entry.key), entry.value, depth: depth + 1)
            }
        default:
            field(label, Self.cborText(value), depth: depth)
        }
    }

    static func cborText(_ value: CBORValue) -> String {
        switch value {
        case .unsigned(let n): String(n)
        case .negative(let n): n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bytes(let bytes): bytesSummary(bytes)
        case .text(let text): "\"\(text)\""
        case .array(let items): "[" + items.map(cborText).joined(separator: ", ") + "]"
        case .map(let entries):
            "{" + entries.map { cborText($0.key) + ": " + cborText($0.value) }.joined(separator: ", ") + "}"
        case .boolean(let value): String(value)
        case .null: "null"
        case .undefined: "undefined"
        case .float(let value): String(value)
        }
    }

    // MARK: Formatting

    static func algorithm(_ algorithm: COSEAlgorithmIdentifier) -> String {
        "\(algorithm.name) (\(algorithm.rawValue))"
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The length and the hex of the first 32 bytes.
    static func bytesSummary(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "0 bytes" }
        let shown = hex(bytes.prefix(32)) + (bytes.count > 32 ? "…" : "")
        return "\(count(bytes.count, "byte")): \(shown)"
    }

    static func printableText(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self),
            text.unicodeScalars.allSatisfy({
                $0.value >= 0x20 && $0.value != 0x7F && !$0.properties.isNoncharacterCodePoint
            })
        else { return nil }
        return text
    }

    static func time(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func jsonText(_ value: JSONValue) -> String {
        switch value {
        case .number(let number) where number.rounded() == number && abs(number) < 1e15:
            return String(Int64(number))
        default:
            return String(decoding: WebAuthnJSON.encode(value), as: UTF8.self)
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
