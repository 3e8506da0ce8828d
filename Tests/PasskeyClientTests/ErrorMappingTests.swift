import Foundation
import PasskeyClient
import PasskeyServer
import Testing

@Suite("PasskeyError: codes and the mapping of server errors")
struct ErrorMappingTests {
    /// Every error code the server answers with (DESIGN §3 and the server's flows), and the SDK code it becomes.
    static let serverCodes: [(server: String, sdk: PasskeyError.Code)] = [
        ("INVALID_REQUEST", .invalidInput), ("PAYLOAD_TOO_LARGE", .invalidInput),
        ("UNAUTHENTICATED", .invalidOrExpiredSession),
        ("FORBIDDEN", .authContextMismatch), ("NOT_FOUND", .notFound), ("METHOD_NOT_ALLOWED", .serverError),
        ("RATE_LIMITED", .rateLimited), ("INTERNAL_ERROR", .serverError), ("SERVICE_UNAVAILABLE", .serverError),
        ("ORIGIN_NOT_ALLOWED", .relyingPartyMismatch), ("RP_ID_MISMATCH", .relyingPartyMismatch),
        ("CEREMONY_TYPE_MISMATCH", .authContextMismatch), ("CHALLENGE_MISMATCH", .authContextMismatch),
        ("CHALLENGE_EXPIRED", .challengeExpired), ("CHALLENGE_CONSUMED", .challengeConsumed),
        ("ATTESTATION_INVALID", .verificationFailed), ("ASSERTION_INVALID", .verificationFailed),
        ("USER_PRESENCE_REQUIRED", .verificationFailed), ("ATTESTATION_FORMAT_NOT_ALLOWED", .authenticatorNotAllowed),
        ("ALGORITHM_NOT_ALLOWED", .authenticatorNotAllowed),
        ("SYNCED_CREDENTIALS_NOT_ALLOWED", .authenticatorNotAllowed),
        ("AUTHENTICATOR_NOT_ALLOWED", .authenticatorNotAllowed),
        ("USER_VERIFICATION_REQUIRED", .userVerificationRequired), ("CREDENTIAL_NOT_FOUND", .passkeyNotFound),
        ("NO_ACTIVE_CREDENTIALS", .passkeyNotFound), ("CREDENTIAL_INACTIVE", .passkeyRevoked),
        ("CREDENTIAL_ALREADY_REGISTERED", .passkeyAlreadyExists),
        ("CREDENTIAL_CLONE_SUSPECTED", .credentialCloneSuspected),
        ("MAX_CREDENTIALS_REACHED", .maxCredentialsReached), ("CREDENTIAL_NAME_INVALID", .credentialNameInvalid),
        ("CREDENTIAL_NAME_HTML", .credentialNameInvalid), ("CREDENTIAL_NAME_DUPLICATE", .credentialNameDuplicate),
        ("REGISTRATION_ATTEMPT_CONFLICT", .registrationAttemptConflict),
        ("REGISTRATION_ATTEMPT_EXPIRED", .registrationAttemptExpired),
        ("RESERVATION_EXPIRED", .reservationExpired), ("INVALID_OR_EXPIRED_SESSION", .invalidOrExpiredSession),
        ("RESULT_ALREADY_REDEEMED", .resultAlreadyRedeemed), ("INVALID_RESULT_TOKEN", .invalidResultToken),
        ("AUTHENTICATION_NOT_COMPLETED", .authenticationNotCompleted),
        ("STEP_UP_CREDENTIAL_USER_MISMATCH", .stepUpCredentialUserMismatch),
        ("WORKFLOW_NOT_COMPLETED", .workflowNotCompleted), ("WORKFLOW_DECLINED", .workflowDeclined),
        ("WORKFLOW_UNDER_REVIEW", .workflowUnderReview), ("WORKFLOW_RUN_REUSE_FORBIDDEN", .workflowRunReuseForbidden),
        ("CHALLENGE_REFRESH_FORBIDDEN", .challengeRefreshForbidden),
        ("STEP_UP_AUTH_SESSION_MISMATCH", .stepUpAuthSessionMismatch),
        ("IDV_ALREADY_STARTED", .identityVerificationAlreadyStarted),
        ("HANDOFF_ALREADY_CLAIMED", "HANDOFF_ALREADY_CLAIMED"), ("RECOVERY_TOKEN_INVALID", "RECOVERY_TOKEN_INVALID"),
    ]

    @Test("every server code maps to its SDK code", arguments: serverCodes)
    func mapping(server: String, sdk: PasskeyError.Code) {
        #expect(PasskeyError.Code(serverCode: server) == sdk)
        #expect(PasskeyError.Code.isKnownServerCode(server))
    }

    @Test("the new identity verification and step-up codes have their stable raw values")
    func newCodes() {
        #expect(PasskeyError.Code.stepUpAuthSessionMismatch.rawValue == "STEP_UP_AUTH_SESSION_MISMATCH")
        #expect(PasskeyError.Code.identityVerificationAlreadyStarted.rawValue == "IDV_ALREADY_STARTED")
        #expect(PasskeyError.Code.workflowNotCompleted.rawValue == "WORKFLOW_NOT_COMPLETED")
    }

    @Test("an unknown code from a newer server is kept, not crashed on")
    func unknownCode() {
        #expect(PasskeyError.Code(serverCode: "QUANTUM_FLUX_EXCEEDED").rawValue == "QUANTUM_FLUX_EXCEEDED")
        #expect(!PasskeyError.Code.isKnownServerCode("QUANTUM_FLUX_EXCEEDED"))
        for junk in [
            "", "lower_case", "WITH SPACE", String(repeating: "A", count: 65), "1STARTS_WITH_DIGIT", "ÜNICODE",
        ] {
            #expect(PasskeyError.Code(serverCode: junk) == .serverError, "\(junk)")
        }
    }

    /// Every code the server can answer is mapped on purpose: a code added to the server without an SDK mapping
    /// fails here.
    @Test("the server answers no code the SDK does not map")
    func serverCodesCovered() {
        let unmapped = APIError.all.map(\.rawValue).filter { !PasskeyError.Code.isKnownServerCode($0) }
        #expect(unmapped.isEmpty, "server codes without an SDK mapping: \(unmapped.sorted())")
    }

    @Test("retryable follows the code unless the server said otherwise")
    func retryable() {
        #expect(PasskeyError(.networkError, "").isRetryable)
        #expect(PasskeyError(.timeout, "").isRetryable)
        #expect(PasskeyError(.rateLimited, "").isRetryable)
        #expect(!PasskeyError(.passkeyNotFound, "").isRetryable)
        #expect(!PasskeyError(.networkError, "", isRetryable: false).isRetryable)
    }

    @Test("errors are equal by code; the description carries the server code and request id")
    func equalityAndDescription() {
        let error = PasskeyError(
            .passkeyNotFound,
            "gone",
            serverCode: "CREDENTIAL_NOT_FOUND",
            httpStatus: 404,
            requestId: "req_1"
        )
        #expect(error == PasskeyError(.passkeyNotFound, "other message"))
        #expect(error.description == "PASSKEY_NOT_FOUND: gone (server: CREDENTIAL_NOT_FOUND) [request req_1]")
    }

    @Test("codes round-trip through JSON and compare with literals")
    func codable() throws {
        let data = try JSONEncoder().encode(PasskeyError.Code.userCancelled)
        #expect(String(decoding: data, as: UTF8.self) == "\"USER_CANCELLED\"")
        #expect(
            try JSONDecoder().decode(PasskeyError.Code.self, from: Data("\"SOMETHING_NEW\"".utf8)) == "SOMETHING_NEW"
        )
    }
}
