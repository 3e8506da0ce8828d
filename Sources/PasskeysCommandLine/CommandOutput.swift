import WebAuthn

/// A JSON value whose object members keep their order, so that output reads in a stable, meaningful order.
indirect enum OutputJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([OutputJSON])
    case object([Member])

    struct Member: Sendable, Equatable {
        let name: String
        let value: OutputJSON
    }

    /// An object from `(name, value)` pairs; members whose value is nil are left out.
    static func object(_ members: KeyValuePairs<String, OutputJSON?>) -> OutputJSON {
        .object(members.compactMap { name, value in value.map { Member(name: name, value: $0) } })
    }

    /// The JSON text, indented by two spaces, with a final newline.
    var text: String {
        var output = ""
        write(to: &output, indent: "")
        return output + "\n"
    }

    private func write(to output: inout String, indent: String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += indent + "  "
                element.write(to: &output, indent: indent + "  ")
                output += index < elements.count - 1 ? ",\n" : "\n"
            }
            output += indent + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += indent + "  "
                Self.writeString(member.name, to: &output)
                output += ": "
                member.value.write(to: &output, indent: indent + "  ")
                output += index < members.count - 1 ? ",\n" : "\n"
            }
            output += indent + "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                output += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// The JSON documents `passkeys verify` prints.
enum VerificationOutput {
    static func registration(_ result: VerifiedRegistration) -> OutputJSON {
        let key = result.credentialPublicKey
        return .object([
            "verified": .bool(true),
            "fmt": .string(result.attestation.format.rawValue),
            "attestationType": .string(result.attestation.type.rawValue),
            "trusted": .bool(result.attestation.trusted),
            "aaguid": .string(result.aaguid.description),
            "credentialId": .string(Base64URL.encode(result.credentialID)),
            "publicKey": .string(Base64URL.encode(key.cborRepresentation)),
            "algorithm": .string(key.algorithm.name),
            "signCount": .int(Int64(result.signCount)),
            "userVerified": .bool(result.userVerified),
            "backupEligible": .bool(result.backupEligible),
            "backupState": .bool(result.backupState),
        ])
    }

    static func authentication(_ result: VerifiedAuthentication) -> OutputJSON {
        .object([
            "verified": .bool(true),
            "credentialId": .string(Base64URL.encode(result.credentialID)),
            "signCount": .int(Int64(result.signCount)),
            "signCountRegressed": .bool(result.signCountRegressed),
            "userVerified": .bool(result.userVerified),
            "backupEligible": .bool(result.backupEligible),
            "backupState": .bool(result.backupState),
            "userHandle": result.userHandle.map { .string(Base64URL.encode($0)) },
        ])
    }

    static func failure(_ error: CommandLineError) -> OutputJSON {
        .object([
            "verified": .bool(false),
            "error": .object([
                "code": .string(error.code.rawValue),
                "message": .string(error.message),
            ]),
        ])
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
