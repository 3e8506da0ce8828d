import Foundation
import WebAuthn

// The sign-in routes' bodies and the sign-in flow's payload, without JSONDecoder and JSONEncoder. Members are
// written in the order `JSONEncoder` sorts them; the decoders accept what the synthesized `Decodable`
// conformances accept, within FastJSON's subset.

extension CreateAuthenticationRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let userId = json.optionalString("userId", in: members),
            let mode = json.optionalString("mode", in: members),
            let action = json.optionalString("action", in: members),
            let transaction = json.optional("transaction", in: members, as: TransactionRequest.self),
            let identityVerification = json.optionalString("identityVerification", in: members),
            let workflowRunId = json.optionalString("workflowRunId", in: members)
        else { return nil }
        self.init(
            userId: userId,
            mode: mode,
            action: action,
            transaction: transaction,
            identityVerification: identityVerification,
            workflowRunId: workflowRunId
        )
    }
}

extension TransactionRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let text = json.requiredString("text", in: members) else { return nil }
        self.init(text: text)
    }
}

extension CompleteAuthenticationRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let object = json.requiredObject("credential", in: members),
            let credential = AuthenticationResponseJSON(fastJSON: json, members: object)
        else { return nil }
        self.init(credential: credential)
    }
}

extension AuthenticationOptionsRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let credentialIds = json.optionalStrings("credentialIds", in: members) else { return nil }
        self.init(credentialIds: credentialIds)
    }
}

extension RedeemRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let resultToken = json.requiredString("resultToken", in: members),
            let issueSession = json.optionalBool("issueSession", in: members)
        else { return nil }
        self.init(resultToken: resultToken, issueSession: issueSession)
    }
}

extension CreateAuthenticationResponse: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("biometricPasskeySessionId", biometricPasskeySessionId)
            writer.member("clientToken", clientToken)
            writer.member("expiresAt", expiresAt)
            writer.member("identityVerification", identityVerification)
            writer.member("transaction", transaction)
        }
    }
}

extension CompleteAuthenticationResponse: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("expiresAt", expiresAt)
            writer.member("resultToken", resultToken)
        }
    }
}

extension Transaction: JSONWritable, FastJSONDecodable {
    init(text: String, digest: String) {
        self.text = text
        self.digest = digest
    }

    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let text = json.requiredString("text", in: members),
            let digest = json.requiredString("digest", in: members)
        else { return nil }
        self.init(text: text, digest: digest)
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("digest", digest)
            writer.member("text", text)
        }
    }
}

extension AuthenticationState: JSONWritable, FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let mode = json.requiredRawValue("mode", in: members, as: SignInMode.self),
            let action = json.optionalString("action", in: members),
            let transaction = json.optional("transaction", in: members, as: Transaction.self),
            let identityVerification = json.optionalBool("identityVerification", in: members),
            let allowedCredentialIDs = json.optionalStrings("allowedCredentialIDs", in: members),
            let crossPlatformSessionId = json.optionalString("crossPlatformSessionId", in: members),
            let result = json.optional("result", in: members, as: AuthenticationResult.self),
            let userVerificationRequired = json.optionalBool("userVerificationRequired", in: members),
            let demoAccountsOnly = json.optionalBool("demoAccountsOnly", in: members),
            let refusal = json.optionalString("refusal", in: members)
        else { return nil }
        self.init(
            mode: mode,
            action: action,
            transaction: transaction,
            identityVerification: identityVerification,
            allowedCredentialIDs: allowedCredentialIDs,
            crossPlatformSessionId: crossPlatformSessionId,
            result: result,
            userVerificationRequired: userVerificationRequired,
            demoAccountsOnly: demoAccountsOnly,
            refusal: refusal
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("action", action)
            writer.member("allowedCredentialIDs", allowedCredentialIDs)
            writer.member("crossPlatformSessionId", crossPlatformSessionId)
            writer.member("demoAccountsOnly", demoAccountsOnly)
            writer.member("identityVerification", identityVerification)
            writer.member("mode", mode.rawValue)
            writer.member("refusal", refusal)
            writer.member("result", result)
            writer.member("transaction", transaction)
            writer.member("userVerificationRequired", userVerificationRequired)
        }
    }
}

extension AuthenticationResult: JSONWritable, FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let userId = json.requiredString("userId", in: members),
            let credentialId = json.requiredString("credentialId", in: members),
            let userVerified = json.requiredBool("userVerified", in: members),
            let backupEligible = json.requiredBool("backupEligible", in: members),
            let backupState = json.requiredBool("backupState", in: members),
            let mode = json.requiredRawValue("mode", in: members, as: SignInMode.self),
            let action = json.optionalString("action", in: members),
            let completedAt = json.requiredSecondsSince1970("completedAt", in: members),
            let transaction = json.optional("transaction", in: members, as: Transaction.self),
            let assurance = json.optionalString("assurance", in: members),
            let identityVerification = json.optional(
                "identityVerification",
                in: members,
                as: IdentityVerificationOutcome.self
            )
        else { return nil }
        self.init(
            userId: userId,
            credentialId: credentialId,
            userVerified: userVerified,
            backupEligible: backupEligible,
            backupState: backupState,
            mode: mode,
            action: action,
            completedAt: completedAt,
            transaction: transaction,
            assurance: assurance,
            identityVerification: identityVerification
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("action", action)
            writer.member("assurance", assurance)
            writer.member("backupEligible", backupEligible)
            writer.member("backupState", backupState)
            writer.member("completedAt", completedAt)
            writer.member("credentialId", credentialId)
            writer.member("identityVerification", identityVerification)
            writer.member("mode", mode.rawValue)
            writer.member("session", session)
            writer.member("transaction", transaction)
            writer.member("userId", userId)
            writer.member("userVerified", userVerified)
        }
    }
}

extension AuthenticationResult.IdentityVerificationOutcome: JSONWritable, FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let workflowRunId = json.requiredString("workflowRunId", in: members),
            let decision = json.requiredString("decision", in: members),
            let faceMatch = json.optionalString("faceMatch", in: members),
            let simulated = json.optionalBool("simulated", in: members)
        else { return nil }
        self.init(workflowRunId: workflowRunId, decision: decision, faceMatch: faceMatch, simulated: simulated)
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("decision", decision)
            writer.member("faceMatch", faceMatch)
            writer.member("simulated", simulated)
            writer.member("workflowRunId", workflowRunId)
        }
    }
}

extension IssuedSession: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("accessToken", accessToken)
            writer.member("expiresIn", expiresIn)
            writer.member("refreshExpiresIn", refreshExpiresIn)
            writer.member("refreshToken", refreshToken)
            writer.member("tokenType", tokenType)
        }
    }
}
