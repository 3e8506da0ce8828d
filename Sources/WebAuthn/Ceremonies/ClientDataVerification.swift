import Crypto

/// The client-data steps shared by registration (§7.1 steps 5–11) and authentication (§7.2 steps 9–14, 20).
struct ClientDataVerification {
    let acceptedTypes: [String]
    let challenge: [UInt8]
    let origins: OriginPolicy

    /// Parses `clientDataJSON`, checks it, and returns it with its SHA-256 hash.
    func verify(_ clientDataJSON: [UInt8]) throws(WebAuthnError) -> (CollectedClientData, [UInt8]) {
        // §7.1 steps 5–6 / §7.2 steps 9–10: UTF-8 decode and parse.
        let clientData = try CollectedClientData(jsonBytes: clientDataJSON)
        // §7.1 step 7 / §7.2 step 11: the ceremony type.
        guard acceptedTypes.contains(clientData.type) else {
            throw WebAuthnError(
                .ceremonyTypeMismatch,
                "clientData.type is '\(clientData.type)' but this ceremony expects \(acceptedTypes.map { "'\($0)'" }.joined(separator: " or ")); a registration response was sent where a sign-in was expected, or the reverse."
            )
        }
        // §7.1 step 8 / §7.2 step 12: C.challenge equals the base64url encoding of the challenge (constant time).
        guard constantTimeEqual(Array(clientData.challenge.utf8), Array(Base64URL.encode(challenge).utf8)) else {
            throw WebAuthnError(
                .challengeMismatch,
                "clientData.challenge is not the challenge issued for this ceremony; start a new ceremony and use its options."
            )
        }
        // §7.1 step 9 / §7.2 step 13: the origin, exactly.
        guard origins.allowedOrigins.contains(clientData.origin) else {
            throw WebAuthnError(
                .originNotAllowed,
                "The origin '\(clientData.origin)' is not allowed for this relying party; add it to the allowed origins if it is yours."
            )
        }
        // §7.1 step 10 / §7.2 step 14: cross-origin iframes and their top-level origin.
        if clientData.crossOrigin == true, !origins.allowCrossOrigin {
            throw WebAuthnError(
                .crossOriginNotAllowed,
                "The ceremony ran in a cross-origin iframe, which this relying party does not allow."
            )
        }
        if let topOrigin = clientData.topOrigin {
            guard origins.allowCrossOrigin, origins.allowedTopOrigins.contains(topOrigin) else {
                throw WebAuthnError(
                    .topOriginNotAllowed,
                    "The ceremony ran in an iframe under '\(topOrigin)', which is not an allowed top-level origin."
                )
            }
        }
        // Token Binding (Level 2 §7.1 step 10; deprecated in Level 3, which keeps the member): the status must
        // match the TLS connection's. This relying party never negotiates Token Binding, so only 'supported'
        // (the client could, but did not) matches; 'present' cannot be true of our connections.
        if let binding = clientData.tokenBinding, binding.status != "supported" {
            throw WebAuthnError(
                .tokenBindingInvalid,
                "clientData.tokenBinding.status is '\(binding.status)', but this relying party does not use Token Binding; only 'supported' (or no tokenBinding) matches its connections."
            )
        }
        // §7.1 step 11 / §7.2 step 20: hash = SHA-256(clientDataJSON).
        return (clientData, Array(SHA256.hash(data: clientDataJSON)))
    }

    private func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
