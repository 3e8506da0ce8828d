// The fast paths of the credential response types: each returns nil whenever the input leaves the subset
// FastJSON handles, or a member is missing or of another type, and the caller then uses JSONDecoder.

extension AuthenticationResponseJSON {
    init?(fastJSON bytes: [UInt8]) {
        guard let value = FastJSON.withObject(bytes, { Self(fastJSON: $0, members: $1) }) else { return nil }
        self = value
    }

    /// The fast path for the object `members`, also where the response is a member of a larger object.
    package init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let id = json.requiredString("id", in: members),
            let rawId = json.requiredBase64URL("rawId", in: members),
            let response = json.requiredObject("response", in: members),
            let clientDataJSON = json.requiredBase64URL("clientDataJSON", in: response),
            let authenticatorData = json.requiredBase64URL("authenticatorData", in: response),
            let signature = json.requiredBase64URL("signature", in: response),
            let userHandle = json.optionalBase64URL("userHandle", in: response),
            let attestationObject = json.optionalBase64URL("attestationObject", in: response),
            let attachment = json.optionalString("authenticatorAttachment", in: members),
            let extensions = json.requiredJSONObject("clientExtensionResults", in: members),
            let type = json.requiredString("type", in: members)
        else { return nil }
        self.init(
            id: id,
            rawId: rawId,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: clientDataJSON,
                authenticatorData: authenticatorData,
                signature: signature,
                userHandle: userHandle,
                attestationObject: attestationObject
            ),
            authenticatorAttachment: attachment.map(AuthenticatorAttachment.init(rawValue:)),
            clientExtensionResults: extensions,
            type: PublicKeyCredentialType(rawValue: type)
        )
    }
}

extension RegistrationResponseJSON {
    init?(fastJSON bytes: [UInt8]) {
        guard let value = FastJSON.withObject(bytes, { Self(fastJSON: $0, members: $1) }) else { return nil }
        self = value
    }

    /// The fast path for the object `members`, also where the response is a member of a larger object.
    package init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let id = json.requiredString("id", in: members),
            let rawId = json.requiredBase64URL("rawId", in: members),
            let response = json.requiredObject("response", in: members),
            let clientDataJSON = json.requiredBase64URL("clientDataJSON", in: response),
            let attestationObject = json.requiredBase64URL("attestationObject", in: response),
            let authenticatorData = json.optionalBase64URL("authenticatorData", in: response),
            let transports = json.optionalStrings(
                "transports",
                in: response,
                as: AuthenticatorTransport.self
            ),
            let publicKey = json.optionalBase64URL("publicKey", in: response),
            let publicKeyAlgorithm = json.optionalInteger("publicKeyAlgorithm", in: response),
            let attachment = json.optionalString("authenticatorAttachment", in: members),
            let extensions = json.requiredJSONObject("clientExtensionResults", in: members),
            let type = json.requiredString("type", in: members)
        else { return nil }
        self.init(
            id: id,
            rawId: rawId,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: clientDataJSON,
                attestationObject: attestationObject,
                authenticatorData: authenticatorData,
                transports: transports,
                publicKey: publicKey,
                publicKeyAlgorithm: publicKeyAlgorithm.map(COSEAlgorithmIdentifier.init(rawValue:))
            ),
            authenticatorAttachment: attachment.map(AuthenticatorAttachment.init(rawValue:)),
            clientExtensionResults: extensions,
            type: PublicKeyCredentialType(rawValue: type)
        )
    }
}
