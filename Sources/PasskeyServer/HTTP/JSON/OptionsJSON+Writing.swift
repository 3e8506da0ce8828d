import WebAuthn

// The options responses, member by member in the order `JSONEncoder` sorts them.

extension PublicKeyOptionsResponse: JSONWritable where Options: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("publicKey", publicKey)
            writer.member("transaction", transaction)
        }
    }
}

extension PublicKeyCredentialRequestOptionsJSON: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("allowCredentials", allowCredentials)
            writer.member("challenge", challenge)
            writer.member("extensions", extensions)
            writer.member("hints", hints)
            writer.member("rpId", rpId)
            writer.member("timeout", timeout.map(Int.init))
            writer.member("userVerification", userVerification)
        }
    }
}

extension PublicKeyCredentialCreationOptionsJSON: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("attestation", attestation)
            writer.member("attestationFormats", attestationFormats)
            writer.member("authenticatorSelection", authenticatorSelection)
            writer.member("challenge", challenge)
            writer.member("excludeCredentials", excludeCredentials)
            writer.member("extensions", extensions)
            writer.member("hints", hints)
            writer.member("pubKeyCredParams", pubKeyCredParams)
            writer.member("rp", rp)
            writer.member("timeout", timeout.map(Int.init))
            writer.member("user", user)
        }
    }
}

extension PublicKeyCredentialDescriptorJSON: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("transports", transports)
            writer.member("type", type)
        }
    }
}

extension PublicKeyCredentialRpEntity: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("name", name)
        }
    }
}

extension PublicKeyCredentialUserEntityJSON: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("displayName", displayName)
            writer.member("id", id)
            writer.member("name", name)
        }
    }
}

extension PublicKeyCredentialParameters: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("alg", alg.rawValue)
            writer.member("type", type)
        }
    }
}

extension AuthenticatorSelectionCriteria: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("authenticatorAttachment", authenticatorAttachment)
            writer.member("requireResidentKey", requireResidentKey)
            writer.member("residentKey", residentKey)
            writer.member("userVerification", userVerification)
        }
    }
}

extension JSONValue: JSONWritable {
    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let values): writer.array(values) { writer, value in value.write(to: &writer) }
        case .object(let members):
            writer.object { writer in
                for (name, value) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    writer.key(name)
                    value.write(to: &writer)
                }
            }
        }
    }
}
