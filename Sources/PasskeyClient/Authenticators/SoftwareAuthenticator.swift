public import Foundation
public import WebAuthn

/// A passkey authenticator in software: P-256 keys made with swift-crypto (or another ``CredentialKeys``), kept
/// in a ``KeyStore`` (an ``EncryptedFileKeyStore`` on disk), with user verification through an injected
/// ``UserVerifier``. It runs on Linux, in servers and command-line tools, and in tests; its ``Behaviour`` mimics
/// the authenticators of real platforms (attestation, signature counter, backup flags, resident keys).
///
/// ```swift
/// let authenticator = SoftwareAuthenticator(
///     keyStore: EncryptedFileKeyStore(path: path, protection: .passphrase(passphrase)),
///     verifier: AutomaticUserVerifier(), behaviour: .syncedPlatform)
/// ```
public struct SoftwareAuthenticator: Authenticator {
    public let keyStore: any KeyStore
    public let verifier: any UserVerifier
    public let keys: any CredentialKeys
    public let behaviour: Behaviour
    let now: @Sendable () -> Date

    public init(
        keyStore: any KeyStore,
        verifier: any UserVerifier = AutomaticUserVerifier(),
        behaviour: Behaviour = Behaviour(),
        keys: any CredentialKeys = SoftwareCredentialKeys(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.keyStore = keyStore
        self.verifier = verifier
        self.keys = keys
        self.behaviour = behaviour
        self.now = now
    }

    /// Whether its key store can be opened (or created on the first passkey): a probe, not a constant.
    public func isSupported() async -> Bool {
        do {
            try await keyStore.checkAvailable()
            return true
        } catch {
            return false
        }
    }

    public func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] {
        try await keyStore.entries().filter { rpDomain == nil || $0.rpId == rpDomain }.map(\.credential)
    }

    /// Every passkey of the key store whose RP ID the host may use: the store lists them all.
    public func heldCredentialIDs(originHost: String) async throws(PasskeyError) -> [String]? {
        let host = originHost.lowercased()
        return try await keyStore.entries().filter { host == $0.rpId || host.hasSuffix("." + $0.rpId) }.map {
            $0.credential.credentialId
        }
    }

    public func deleteCredential(id: String) async throws(PasskeyError) {
        let bytes = try CredentialID.decode(id)
        try await keyStore.update { entries throws(PasskeyError) in
            guard let index = entries.firstIndex(where: { $0.credentialId.bytes == bytes }) else {
                throw PasskeyError(.passkeyNotFound, "No passkey with id \(id) is on this device.")
            }
            entries.remove(at: index)
        }
    }
}

extension SoftwareAuthenticator {
    /// How the authenticator presents itself, to mimic real platforms in tests.
    public struct Behaviour: Sendable, Hashable {
        /// The attestation statement of new credentials. `packedSelf` is sent only when the options ask for
        /// attestation (`direct`, `indirect`, `enterprise`): for `none`, a client replaces the statement with
        /// `none` and zeroes the AAGUID (WebAuthn §5.1.3), and so does this one.
        public enum Attestation: String, Sendable, Hashable, CaseIterable {
            case none
            case packedSelf
        }

        /// The signature counter: incremented on every assertion (security keys), or always 0 (synced passkeys).
        public enum Counter: String, Sendable, Hashable, CaseIterable {
            case incrementing
            case alwaysZero
        }

        /// The backup flags (BE and BS, WebAuthn §6.1.3).
        public enum Backup: String, Sendable, Hashable, CaseIterable {
            /// BE = 0, BS = 0: a device-bound credential.
            case deviceBound
            /// BE = 1, BS = 0: may be synced, not backed up yet.
            case eligible
            /// BE = 1, BS = 1: a synced passkey.
            case synced
        }

        public var attestation: Attestation
        public var counter: Counter
        public var backup: Backup
        /// Whether it can store discoverable credentials (resident keys) for usernameless sign-in.
        public var residentKeys: Bool
        /// The AAGUID reported with attestation.
        public var aaguid: [UInt8]
        public var attachment: AuthenticatorAttachment
        public var transports: [AuthenticatorTransport]

        public init(
            attestation: Attestation = .none,
            counter: Counter = .incrementing,
            backup: Backup = .deviceBound,
            residentKeys: Bool = true,
            aaguid: [UInt8] = Array(repeating: 0, count: 16),
            attachment: AuthenticatorAttachment = .platform,
            transports: [AuthenticatorTransport] = [.internal]
        ) {
            self.attestation = attestation
            self.counter = counter
            self.backup = backup
            self.residentKeys = residentKeys
            self.aaguid = aaguid
            self.attachment = attachment
            self.transports = transports
        }

        /// Like iCloud Keychain or Google Password Manager: no attestation, a counter of 0, synced, discoverable.
        public static let syncedPlatform = Self(attestation: .none, counter: .alwaysZero, backup: .synced)
        /// Like a security key: packed self attestation, an incrementing counter, device-bound.
        public static let securityKey = Self(
            attestation: .packedSelf,
            counter: .incrementing,
            backup: .deviceBound,
            attachment: .crossPlatform,
            transports: [.usb, .nfc]
        )
    }
}

/// Credential ids as the SDK's API carries them: unpadded base64url.
enum CredentialID {
    static func decode(_ id: String) throws(PasskeyError) -> [UInt8] {
        guard let bytes = try? Base64URL.decode(id), !bytes.isEmpty, bytes.count <= 1023 else {
            throw PasskeyError(
                .invalidInput,
                "'\(id)' is not a credential id: an id is 1–1023 bytes in unpadded base64url."
            )
        }
        return bytes
    }
}

extension UserVerificationRequirementValue {
    /// WebAuthn's default is `preferred`, and unknown values count as `preferred` (§5.8.6).
    public init(_ requirement: UserVerificationRequirement?) {
        switch requirement {
        case .required?: self = .required
        case .discouraged?: self = .discouraged
        default: self = .preferred
        }
    }
}
