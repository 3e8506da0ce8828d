import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// The steps of ``RegistrationFlow/complete(_:request:by:)``.
extension RegistrationFlow {
    /// Verifies the response with the server's policy (`RegistrationCeremony`, §7.1 steps 3–24 and 27). A failure
    /// marks the flow failed, is counted and audited, and is answered with its code.
    func verifyRegistration(
        _ credential: RegistrationResponseJSON,
        challenge: [UInt8],
        flow: FlowRecord,
        userID: String,
        by caller: Caller
    ) async throws(APIError) -> VerifiedRegistration {
        do throws(WebAuthnError) {
            return try await RegistrationCeremony(
                challenge: challenge,
                relyingPartyID: configuration.rpId,
                origins: origins,
                userVerification: configuration.policy.userVerification,
                allowedAlgorithms: configuration.policy.algorithms.map(COSEAlgorithmIdentifier.init(rawValue:)),
                attestation: attestationPolicy,
                allowBackupEligible: configuration.policy.allowSyncedCredentials
            ).verify(credential, at: now())
        } catch {
            if error.code == .metadataStale {
                logger.error("FIDO metadata is stale; install a current BLOB", metadata: ["reason": "\(error.reason)"])
            }
            let apiError = APIError(error)
            await ceremonyFailed(.registration, flow: flow, userID: userID, code: apiError.code, by: caller)
            throw apiError
        }
    }

    /// `defaultName`, or the first of "defaultName 2", "… 3" that no live credential of the user has. Names are
    /// unique among live credentials only: an expired reservation's name is free again.
    func freeDefaultName(_ defaultName: String, userID: String, at time: Date) async throws(APIError) -> CredentialName
    {
        let live = try await storage { try await store.credentials(userID: userID) }.filter { $0.isLive(at: time) }
        return try CredentialName(Self.uniqueDefaultName(defaultName, taken: Set(live.map(\.nameKey))))
    }

    /// The credential record to store (§7.1 step 26): active, or reserved until finalized when the attempt asked
    /// for an explicit finalize.
    func credentialRecord(
        _ registration: VerifiedRegistration,
        name: CredentialName,
        state: RegistrationState,
        flow: FlowRecord,
        userID: String,
        run: WorkflowRunRecord?,
        at time: Date
    ) -> CredentialRecordRow {
        CredentialRecordRow(
            id: registration.credentialID,
            userID: userID,
            publicKey: registration.credentialPublicKey.cborRepresentation,
            algorithm: registration.credentialPublicKey.algorithm.rawValue,
            signCount: registration.signCount,
            aaguid: registration.aaguid.description,
            attestationFormat: registration.attestation.format.rawValue,
            attestationType: registration.attestation.type.rawValue,
            attestationTrusted: registration.attestation.trusted,
            transports: registration.transports.map(\.rawValue),
            backupEligible: registration.backupEligible,
            backupState: registration.backupState,
            userVerified: registration.userVerified,
            name: name.value,
            nameKey: name.key,
            status: state.explicitFinalize ? .reserved : .active,
            reservedUntil: state.explicitFinalize ? expiry(configuration.expiries.reservation) : nil,
            flowID: flow.id,
            createdAt: time,
            workflowRunID: run?.id ?? state.workflowRunID,
            consoleEnrolled: state.consolePasskey == true
        )
    }

    /// Inserts `row` and completes the flow in one store operation, which refuses a credential id registered
    /// already (§7.1 step 25), a user at the passkey limit (a sign-up: with any passkey on record) and a name taken.
    /// With a `defaultName`, a name taken by a concurrent registration is replaced by the next free one and the
    /// insert tried again. The insert appends the audit event `audit` makes of the row it inserts. A refusal marks the
    /// flow failed, is audited, and is answered with its code.
    func insertRegisteredCredential(
        _ row: inout CredentialRecordRow,
        state: RegistrationState,
        completedPayload: [UInt8],
        defaultName: String?,
        flow: FlowRecord,
        audit: (CredentialRecordRow) -> AuditAppend,
        by caller: Caller,
        at time: Date
    ) async throws(APIError) {
        var retries = 0
        while true {
            do throws(StoreError) {
                let update = FlowUpdate(status: .completed, payload: completedPayload)
                let append = audit(row)
                if state.newAccount == true {
                    // A sign-up is the user's first passkey ever: with one on record (live or revoked), the store
                    // refuses it atomically; else it writes the sign-up's display name with it.
                    try await store.insertFirstCredential(
                        row,
                        displayName: state.displayName,
                        flowID: flow.id,
                        flowUpdate: update,
                        at: time,
                        audit: append
                    )
                } else {
                    try await store.insertCredential(
                        row,
                        maximumActive: state.maximumActive ?? configuration.policy.maxCredentialsPerUser,
                        flowID: flow.id,
                        flowUpdate: update,
                        at: time,
                        audit: append
                    )
                }
                ringForWebhooks(append)
                return
            } catch let error
                where error.code == .nameTaken && defaultName != nil
                && retries < configuration.policy.maxCredentialsPerUser
            {
                // A concurrent registration of this user took the default name: take the next free one.
                retries += 1
                let next = try await freeDefaultName(defaultName ?? "", userID: row.userID, at: time)
                (row.name, row.nameKey) = (next.value, next.key)
            } catch {
                let apiError: APIError
                switch error.code {
                case .credentialExists: apiError = .credentialAlreadyRegistered
                case .limitReached: apiError = state.newAccount == true ? .userNameTaken : .maxCredentialsReached
                case .nameTaken: apiError = .credentialNameDuplicate
                case .flowEnded: apiError = .flowEnded
                case .unavailable: apiError = .storageUnavailable
                default: apiError = .unexpected
                }
                await ceremonyFailed(.registration, flow: flow, userID: row.userID, code: apiError.code, by: caller)
                throw apiError
            }
        }
    }
}
