// Apple platforms only (AuthenticationServices, iOS 17 / macOS 14); type-checked on Linux against stand-in
// declarations (scripts/typecheck-apple.sh).
#if canImport(AuthenticationServices)
import AuthenticationServices

/// Whether the user turned this app on as an AutoFill credential provider, and the way to the setting.
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
public enum CredentialProviderSettings {
    /// The identity store's state: the user turned the app on as an AutoFill provider in Settings.
    public static func isEnabled() async -> Bool {
        await SystemCredentialIdentityStore().state().isEnabled
    }

    /// Opens Settings at the AutoFill providers, where the user can turn the app on.
    public static func open() async throws(PasskeyError) {
        do {
            try await ASSettingsHelper.openCredentialProviderAppSettings()
        } catch {
            throw PasskeyError(
                .featureNotAvailable,
                "Settings could not be opened at the AutoFill providers.",
                cause: error
            )
        }
    }
}
#endif
