import Foundation

/// The payload of a SafetyNet attestation JWS: the device-integrity verdict for one nonce.
///
/// `nonce` and `timestampMs` are required. The verdicts `ctsProfileMatch` and `basicIntegrity` count
/// as false when absent (an error response carries neither). Other members are ignored.
struct SafetyNetResponse: Sendable, Hashable {
    /// The nonce the caller passed to SafetyNet, as SafetyNet echoes it (standard base64 for WebAuthn).
    let nonce: String
    /// When the response was produced, in milliseconds since the Unix epoch.
    let timestampMs: Int64
    /// The device passed Android compatibility testing (a certified, unmodified device).
    let ctsProfileMatch: Bool
    /// The device has not been tampered with (weaker than ctsProfileMatch).
    let basicIntegrity: Bool
    let apkPackageName: String?
    /// `BASIC` or `BASIC,HARDWARE_BACKED`, on newer responses.
    let evaluationType: String?

    /// When the response was produced.
    var timestamp: Date { Date(timeIntervalSince1970: Double(timestampMs) / 1000) }

    private struct Wire: Decodable {
        let nonce: String
        let timestampMs: Int64
        let ctsProfileMatch: Bool?
        let basicIntegrity: Bool?
        let apkPackageName: String?
        let evaluationType: String?
    }

    /// Parses the JSON payload. Errors are `ATTESTATION_INVALID`.
    init(jsonBytes bytes: [UInt8]) throws(WebAuthnError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(bytes))
        } catch {
            throw WebAuthnError(
                .attestationInvalid,
                "\(AttestationFormat.androidSafetyNet.rawValue) attestation: the JWS payload is not a SafetyNet response with a string 'nonce' and an integer 'timestampMs': \(JSONErrorText.describe(error))."
            )
        }
        nonce = wire.nonce
        timestampMs = wire.timestampMs
        ctsProfileMatch = wire.ctsProfileMatch ?? false
        basicIntegrity = wire.basicIntegrity ?? false
        apkPackageName = wire.apkPackageName
        evaluationType = wire.evaluationType
    }
}
