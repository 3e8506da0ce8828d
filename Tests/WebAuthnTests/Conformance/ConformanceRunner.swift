import CorpusTestSupport
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// Turns a corpus case into our ceremony inputs, runs it, and reports what happened.
enum ConformanceRunner {
    struct Result {
        let ok: Bool
        let fmt: String?
        let aaguid: String?
        let credentialID: String?
        let signCount: UInt32?
        let error: WebAuthnError?
    }

    /// Cases whose `verifyAt` is null were recorded against the source test's real clock. We pin that clock to
    /// the day this harness was written, so outcomes do not change as certificates in the corpus expire.
    static let pinnedClock = ISO8601DateFormatter().date(from: "2026-11-21T00:00:00Z")!

    static func run(
        _ testCase: ConformanceCase,
        adjustPolicy: (inout AttestationPolicy) -> Void = { _ in }
    ) async throws -> Result {
        let expected = testCase.expected
        // Two cases expect a placeholder text that is not base64url; no client challenge can equal it.
        let challenge = (try? Base64URL.decode(expected.challenge)) ?? Array(expected.challenge.utf8)
        let origins = OriginPolicy(
            allowedOrigins: Set(expected.origin.values),
            allowCrossOrigin: expected.allowCrossOrigin ?? false,
            allowedTopOrigins: Set(expected.topOrigins ?? [])
        )
        // A case without an RP ID (the source library skips the check) is run against its origin's host:
        // this verifier always checks rpIdHash.
        let rpIDs = expected.rpId?.values ?? expected.origin.values.compactMap { URL(string: $0)?.host }
        let userVerification: UserVerificationRequirement = expected.requireUserVerification ? .required : .preferred
        let responseJSON = WebAuthnJSON.encode(testCase.response)
        let time = try expected.verifyAt.map { try Date($0, strategy: .iso8601) } ?? pinnedClock

        do {
            if testCase.ceremony == "registration" {
                var policy = try attestationPolicy(expected)
                adjustPolicy(&policy)
                var ceremony = RegistrationCeremony(
                    challenge: challenge,
                    relyingPartyID: rpIDs[0],
                    origins: origins,
                    userVerification: userVerification,
                    allowedAlgorithms: COSEAlgorithmIdentifier.supported,
                    attestation: policy
                )
                ceremony.relyingPartyIDs = rpIDs
                ceremony.requireUserPresence = expected.requireUserPresence ?? true
                if let types = expected.expectedType { ceremony.acceptedClientDataTypes = types.values }
                let response = try RegistrationResponseJSON(jsonBytes: responseJSON)
                let result = try await ceremony.verify(response, at: time)
                return Result(
                    ok: true,
                    fmt: result.attestation.format.rawValue,
                    aaguid: result.aaguid.description,
                    credentialID: Base64URL.encode(result.credentialID),
                    signCount: result.signCount,
                    error: nil
                )
            } else {
                var ceremony = AuthenticationCeremony(
                    challenge: challenge,
                    relyingPartyID: rpIDs[0],
                    origins: origins,
                    user: .credentialOnly,
                    userVerification: userVerification
                )
                ceremony.relyingPartyIDs = rpIDs
                ceremony.requireUserPresence = expected.requireUserPresence ?? true
                if let types = expected.expectedType { ceremony.acceptedClientDataTypes = types.values }
                let response = try AuthenticationResponseJSON(jsonBytes: responseJSON)
                let key = try COSEKey(cborRepresentation: try Base64URL.decode(expected.credentialPublicKey ?? ""))
                let record = CredentialRecord(
                    id: response.rawId.bytes,
                    publicKey: key,
                    signCount: expected.signCount ?? 0
                )
                let result = try ceremony.verify(response, credential: record)
                return Result(
                    ok: true,
                    fmt: nil,
                    aaguid: nil,
                    credentialID: Base64URL.encode(result.credentialID),
                    signCount: result.signCount,
                    error: nil
                )
            }
        } catch let error as WebAuthnError {
            return Result(ok: false, fmt: nil, aaguid: nil, credentialID: nil, signCount: nil, error: error)
        }
    }

    static func attestationPolicy(_ expected: ConformanceCase.Expected) throws -> AttestationPolicy {
        var anchors: [AttestationFormat: [Certificate]] = [:]
        for (format, paths) in expected.trustAnchors ?? [:] {
            anchors[AttestationFormat(rawValue: format)] = try paths.map { path in
                try Certificate(pemEncoded: String(decoding: ConformanceCorpus.data(path), as: UTF8.self))
            }
        }
        return AttestationPolicy(
            trustAnchors: anchors,
            safetyNetRequiresCTSProfileMatch: expected.safetyNetEnforceCTSCheck ?? true
        )
    }
}
