// Apple platforms only (AuthenticationServices, iOS 17 / macOS 14); type-checked on Linux against stand-in
// declarations (scripts/typecheck-apple.sh). The decisions are CredentialIdentitySync's, tested on Linux.
#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// The system's AutoFill identity store (`ASCredentialIdentityStore.shared`), for ``CredentialIdentitySync``.
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
public struct SystemCredentialIdentityStore: CredentialIdentityStoring {
    public init() {}

    public func state() async -> CredentialIdentityStoreState {
        let state = await ASCredentialIdentityStore.shared.state()
        return CredentialIdentityStoreState(
            isEnabled: state.isEnabled,
            supportsIncrementalUpdates: state.supportsIncrementalUpdates
        )
    }

    public func save(_ identities: [PasskeyCredentialIdentity]) async throws(PasskeyError) {
        try await run("save") {
            try await ASCredentialIdentityStore.shared.saveCredentialIdentities(Self.system(identities))
        }
    }

    public func replaceAll(with identities: [PasskeyCredentialIdentity]) async throws(PasskeyError) {
        try await run("replace") {
            try await ASCredentialIdentityStore.shared.replaceCredentialIdentities(Self.system(identities))
        }
    }

    public func removeAll() async throws(PasskeyError) {
        try await run("clear") { try await ASCredentialIdentityStore.shared.removeAllCredentialIdentities() }
    }

    static func system(_ identities: [PasskeyCredentialIdentity]) -> [any ASCredentialIdentity] {
        identities.map {
            ASPasskeyCredentialIdentity(
                relyingPartyIdentifier: $0.rpID,
                userName: $0.userName,
                credentialID: Data($0.credentialID),
                userHandle: Data($0.userHandle),
                recordIdentifier: $0.recordIdentifier
            )
        }
    }

    private func run(_ verb: String, _ body: () async throws -> Void) async throws(PasskeyError) {
        do {
            try await body()
        } catch {
            throw PasskeyError(
                .featureNotAvailable,
                "The system could not \(verb) the AutoFill passkeys (is the store busy, or the provider off?); the cause says why.",
                cause: error
            )
        }
    }
}
#endif
