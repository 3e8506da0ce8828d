import Dispatch
public import Foundation
public import WebAuthn

/// The input of the JSON verification targets: one header line, then the response JSON exactly as a client
/// sends it.
///
///     rpID <TAB> verifyAt (Unix seconds, may be empty) <TAB> credentialPublicKey (base64url COSE, may be empty) <LF>
///     { ...RegistrationResponseJSON or AuthenticationResponseJSON... }
///
/// The ceremony takes its challenge and origin from the response's own clientDataJSON when that parses,
/// so that mutated inputs get past those checks and reach the later steps.
public struct FuzzInput: Sendable {
    public let relyingPartyID: String
    public let time: Date
    public let credentialPublicKey: [UInt8]
    public let json: [UInt8]

    public init?(_ bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let fields = bytes[..<newline].split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        relyingPartyID = String(decoding: fields[0], as: UTF8.self)
        let seconds = Double(String(decoding: fields[1], as: UTF8.self)) ?? 1_767_225_600
        time = Date(timeIntervalSince1970: seconds.isFinite ? seconds : 0)
        credentialPublicKey = (try? Base64URL.decode(String(decoding: fields[2], as: UTF8.self))) ?? []
        json = Array(bytes[(newline + 1)...])
    }

    /// The challenge and origins the response's client data claims, or nothing when it does not parse.
    public func expectations(clientDataJSON: [UInt8]) -> (challenge: [UInt8], origins: OriginPolicy) {
        guard let clientData = try? CollectedClientData(jsonBytes: clientDataJSON) else {
            return ([], OriginPolicy(allowedOrigins: []))
        }
        let challenge = (try? Base64URL.decode(clientData.challenge)) ?? []
        let origins = OriginPolicy(
            allowedOrigins: [clientData.origin],
            allowCrossOrigin: true,
            allowedTopOrigins: clientData.topOrigin.map { [$0] } ?? []
        )
        return (challenge, origins)
    }
}

/// Runs async work to completion from the synchronous fuzzer callback.
public func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let semaphore = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        semaphore.signal()
    }
    semaphore.wait()
}
