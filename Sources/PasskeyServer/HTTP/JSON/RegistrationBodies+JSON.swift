import Foundation
import WebAuthn

// The registration routes' bodies and the registration flow's payload, without JSONDecoder and JSONEncoder.
// Members are written in the order `JSONEncoder` sorts them; the decoders accept what the synthesized
// `Decodable` conformances accept, within FastJSON's subset.

extension CreateRegistrationRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let userId = json.requiredString("userId", in: members),
            let userName = json.requiredString("userName", in: members),
            let displayName = json.optionalString("displayName", in: members),
            let identityVerification = json.optionalString("identityVerification", in: members),
            let credentialName = json.optionalString("credentialName", in: members),
            let finalize = json.optionalString("finalize", in: members),
            let workflowRunId = json.optionalString("workflowRunId", in: members)
        else { return nil }
        self.init(
            userId: userId,
            userName: userName,
            displayName: displayName,
            identityVerification: identityVerification,
            credentialName: credentialName,
            finalize: finalize,
            workflowRunId: workflowRunId
        )
    }
}

extension CompleteRegistrationRequest: FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let object = json.requiredObject("credential", in: members),
            let credential = RegistrationResponseJSON(fastJSON: json, members: object),
            let name = json.optionalString("name", in: members)
        else { return nil }
        self.init(credential: credential, name: name)
    }
}

extension CreateRegistrationResponse: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("clientToken", clientToken)
            writer.member("expiresAt", expiresAt)
            writer.member("idvToken", idvToken)
            writer.member("registrationAttemptId", registrationAttemptId)
            writer.member("workflowRunId", workflowRunId)
        }
    }
}

extension CredentialResponse: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("aaguid", aaguid)
            writer.member("algorithm", algorithm)
            writer.member("attestationFormat", attestationFormat)
            writer.member("attestationTrusted", attestationTrusted)
            writer.member("attestationType", attestationType)
            writer.member("authenticatorName", authenticatorName)
            writer.member("backupEligible", backupEligible)
            writer.member("backupState", backupState)
            writer.member("createdAt", createdAt)
            writer.member("credentialId", credentialId)
            writer.member("finalizeToken", finalizeToken)
            writer.member("identityVerified", identityVerified)
            writer.member("kind", kind)
            writer.member("lastUsedAt", lastUsedAt)
            writer.member("name", name)
            writer.member("status", status)
            writer.member("transports", transports)
            writer.member("userId", userId)
            writer.member("workflowRunId", workflowRunId)
        }
    }
}

extension RegistrationStatusResponse: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("createdAt", createdAt)
            writer.member("credential", credential)
            writer.member("expiresAt", expiresAt)
            writer.member("finalize", finalize)
            writer.member("reason", reason)
            writer.member("registrationAttemptId", registrationAttemptId)
            writer.member("status", status)
            writer.member("userId", userId)
        }
    }
}

extension RegistrationState: JSONWritable, FastJSONDecodable {
    init?(fastJSON json: FastJSON, members: [FastJSON.Member]) {
        guard let userName = json.requiredString("userName", in: members),
            let displayName = json.requiredString("displayName", in: members),
            let credentialName = json.optionalString("credentialName", in: members),
            let explicitFinalize = json.requiredBool("explicitFinalize", in: members),
            let credentialID = json.optionalString("credentialID", in: members),
            let newAccount = json.optionalBool("newAccount", in: members),
            let identityVerification = json.optionalBool("identityVerification", in: members),
            let maximumActive = json.optionalInteger("maximumActive", in: members),
            let workflowRunID = json.optionalString("workflowRunID", in: members),
            let consolePasskey = json.optionalBool("consolePasskey", in: members),
            let finalizeTokenHash = json.optionalString("finalizeTokenHash", in: members),
            let abortReason = json.optionalString("abortReason", in: members)
        else { return nil }
        self.init(
            userName: userName,
            displayName: displayName,
            credentialName: credentialName,
            explicitFinalize: explicitFinalize,
            credentialID: credentialID,
            newAccount: newAccount,
            identityVerification: identityVerification,
            maximumActive: maximumActive,
            workflowRunID: workflowRunID,
            consolePasskey: consolePasskey,
            finalizeTokenHash: finalizeTokenHash,
            abortReason: abortReason
        )
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("abortReason", abortReason)
            writer.member("consolePasskey", consolePasskey)
            writer.member("credentialID", credentialID)
            writer.member("credentialName", credentialName)
            writer.member("displayName", displayName)
            writer.member("explicitFinalize", explicitFinalize)
            writer.member("finalizeTokenHash", finalizeTokenHash)
            writer.member("identityVerification", identityVerification)
            writer.member("maximumActive", maximumActive)
            writer.member("newAccount", newAccount)
            writer.member("userName", userName)
            writer.member("workflowRunID", workflowRunID)
        }
    }
}
