import Foundation

/// The client data the browser or platform collected and the authenticator signed over (WebAuthn §5.8.1).
public struct CollectedClientData: Sendable, Hashable {
    public let type: String
    /// The challenge, as the base64url text the client put in `clientDataJSON`.
    public let challenge: String
    public let origin: String
    public let crossOrigin: Bool?
    public let topOrigin: String?
    public let tokenBinding: TokenBinding?
    /// The exact JSON bytes (the data whose hash the authenticator signed).
    public let rawRepresentation: [UInt8]

    public struct TokenBinding: Sendable, Hashable, Decodable {
        /// `supported` or `present` (Level 2). Only `supported` matches this relying party, which never uses Token Binding.
        public let status: String
        public let id: String?
    }

    /// The largest `clientDataJSON` accepted.
    public static let maximumSize = 16 * 1024

    /// Parses `clientDataJSON` (§7.1 steps 5–6, §7.2 steps 9–10): UTF-8 JSON whose members have the right types.
    public init(jsonBytes bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumSize else {
            throw WebAuthnError(
                .inputTooLarge,
                "clientDataJSON of \(bytes.count) bytes exceeds the limit of \(Self.maximumSize)."
            )
        }
        let decoded: Wire
        if let fast = Wire(fastJSON: bytes) {
            // The common shape, decoded without JSONDecoder (see FastJSON); anything else goes through it.
            decoded = fast
        } else {
            do {
                decoded = try JSONDecoder().decode(Wire.self, from: Data(bytes))
            } catch {
                throw WebAuthnError(
                    .malformedClientData,
                    "clientDataJSON is not a JSON object with string members type, challenge and origin: \(JSONErrorText.describe(error))."
                )
            }
        }
        type = decoded.type
        challenge = decoded.challenge
        origin = decoded.origin
        crossOrigin = decoded.crossOrigin
        topOrigin = decoded.topOrigin
        tokenBinding = decoded.tokenBinding?.value
        rawRepresentation = bytes
    }

    private struct Wire: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
        let tokenBinding: LegacyTolerantTokenBinding?

        /// The fast path: nil (decode with JSONDecoder) unless the input is in FastJSON's subset, has the
        /// members of the right types, and has no `tokenBinding` member (rare, and left to JSONDecoder).
        init?(fastJSON bytes: [UInt8]) {
            guard
                let wire = FastJSON.withObject(
                    bytes,
                    { json, members -> Wire? in
                        guard let type = json.requiredString("type", in: members),
                            let challenge = json.requiredString("challenge", in: members),
                            let origin = json.requiredString("origin", in: members),
                            let crossOrigin = json.optionalBool("crossOrigin", in: members),
                            let topOrigin = json.optionalString("topOrigin", in: members),
                            json.member("tokenBinding", in: members) == nil
                        else { return nil }
                        return Wire(
                            type: type,
                            challenge: challenge,
                            origin: origin,
                            crossOrigin: crossOrigin,
                            topOrigin: topOrigin,
                            tokenBinding: nil
                        )
                    }
                )
            else { return nil }
            self = wire
        }

        init(
            type: String,
            challenge: String,
            origin: String,
            crossOrigin: Bool?,
            topOrigin: String?,
            tokenBinding: LegacyTolerantTokenBinding?
        ) {
            self.type = type
            self.challenge = challenge
            self.origin = origin
            self.crossOrigin = crossOrigin
            self.topOrigin = topOrigin
            self.tokenBinding = tokenBinding
        }
    }

    /// Some pre-standard clients sent `tokenBinding` as a bare string (such as "unused"); it carries no binding
    /// and is ignored. A dictionary must have the Level 2 shape.
    private struct LegacyTolerantTokenBinding: Decodable {
        let value: TokenBinding?
        init(from decoder: any Decoder) throws {
            if (try? decoder.singleValueContainer().decode(String.self)) != nil {
                value = nil
            } else {
                value = try TokenBinding(from: decoder)
            }
        }
    }
}
