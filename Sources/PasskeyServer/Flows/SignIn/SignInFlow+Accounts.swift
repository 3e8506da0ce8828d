import Foundation
import PasskeyStorage
import WebAuthn

/// Whose passkeys may complete a sign-in: the flow's user's, when it names one; a demo account's, when the flow is the
/// demo's. Checked when the device names the passkeys it holds (before it is asked to sign) and again when it answers.
extension SignInFlow {
    /// The passkeys among `ids` — the device's whole list for this relying party — that can complete `flow`, in the
    /// device's order. When none can, the sign-in is refused before anything is signed: with `DEMO_ACCOUNT_REQUIRED`
    /// (and the flow and its handoff refused, as ``refuseSiteAccount(_:state:credentialID:by:)`` does) when the
    /// device's passkeys belong to accounts the demo does not sign in, else with `CREDENTIAL_NOT_FOUND`.
    func heldCredentials(
        _ ids: [String],
        for flow: FlowRecord,
        state: AuthenticationState,
        by caller: Caller
    ) async throws(APIError) -> [CredentialRecordRow] {
        guard ids.count <= AuthenticationOptionsRequest.limit else {
            throw APIError.invalidRequest(
                "credentialIds lists \(ids.count) passkeys; send at most \(AuthenticationOptionsRequest.limit), or none."
            )
        }
        var eligible: [CredentialRecordRow] = []
        var siteAccount: UserRecord?
        for (index, text) in ids.enumerated() {
            guard let id = try? Base64URL.decode(text), (1...1023).contains(id.count) else {
                throw APIError.invalidRequest(
                    "credentialIds[\(index)] is not a credential id: send each passkey's id as base64url (1 to 1023 bytes)."
                )
            }
            guard let found = try await storage({ try await store.credentialWithOwner(id: id) }),
                found.credential.status == .active, flow.userID == nil || found.owner.id == flow.userID,
                !eligible.contains(where: { $0.id == found.credential.id })
            else { continue }
            if state.demoAccountsOnly == true, !found.owner.isDemoAccount {
                siteAccount = siteAccount ?? found.owner
                continue
            }
            eligible.append(found.credential)
        }
        if eligible.isEmpty, let siteAccount {
            try await refuse(flow, state: state, ownedBy: siteAccount, by: caller)
        }
        guard !eligible.isEmpty else { throw APIError.noHeldCredential }
        return eligible
    }

    /// The demo's sign-in is completed only by a passkey of an account the demo made: another account's is refused
    /// before anything is verified or recorded.
    func refuseSiteAccount(
        _ flow: FlowRecord,
        state: AuthenticationState,
        credentialID: [UInt8],
        by caller: Caller
    ) async throws(APIError) {
        guard let found = try await storage({ try await store.credentialWithOwner(id: credentialID) }),
            !found.owner.isDemoAccount
        else { return }
        try await refuse(flow, state: state, ownedBy: found.owner, by: caller)
    }

    /// Refuses the demo's sign-in for a passkey of `owner`, a site account: the sign-in fails and its handoff (if any)
    /// is rejected, so the phone and the first device both say why (`DEMO_ACCOUNT_REQUIRED`) and nothing is approved.
    private func refuse(
        _ flow: FlowRecord,
        state: AuthenticationState,
        ownedBy owner: UserRecord,
        by caller: Caller
    ) async throws(APIError) {
        var refused = state
        refused.refusal = APIError.demoAccountsOnly.code.rawValue
        let payload = try Self.encodePayload(refused)
        let time = now()
        _ = try await storage {
            try await store.updateFlow(
                id: flow.id,
                expectedStatuses: [.created, .handedOff, .optionsIssued, .failed, .verifying],
                at: time,
                update: FlowUpdate(status: .failed, clearChallenge: true, payload: payload)
            )
        }
        if let id = state.crossPlatformSessionId {
            _ = try await storage {
                try await store.updateCrossPlatformSession(
                    id: id,
                    from: [.claimed, .confirmed],
                    to: .rejected,
                    at: time
                )
            }
        }
        await audit(
            .authenticationFailed,
            by: caller,
            userID: owner.id,
            subject: flow.id,
            details: ["code": APIError.demoAccountsOnly.code.rawValue]
        )
        throw APIError.demoAccountsOnly
    }
}
