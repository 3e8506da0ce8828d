import Foundation
import WebAuthn

/// Authenticator data and its flags.
extension InspectionReport {
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
}
