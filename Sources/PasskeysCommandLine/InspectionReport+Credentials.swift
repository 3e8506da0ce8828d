import Foundation
import WebAuthn

/// The two JSON credentials (registration and authentication responses) and their common members.
extension InspectionReport {
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
}
