import Foundation
import WebAuthn

/// `clientDataJSON`.
extension InspectionReport {
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
}
