import Foundation
import WebAuthn

/// A WebAuthn authenticator emulated by the browser (DevTools' WebAuthn domain): it answers
/// `navigator.credentials.create` and `get` with real keys, and its credentials can be inspected.
/// Keys live only as long as the browser.
public struct VirtualAuthenticator: Sendable {
    public let page: Page
    /// DevTools' identifier of this authenticator.
    public let id: String

    public struct Options: Sendable {
        public enum CTAP: String, Sendable {
            case ctap2
            case u2f
        }

        public enum Transport: String, Sendable {
            case `internal`
            case usb
            case nfc
            case ble
            case hybrid
        }

        public var `protocol`: CTAP
        public var transport: Transport
        public var hasResidentKey: Bool
        public var hasUserVerification: Bool
        public var isUserVerified: Bool
        /// Whether user presence is granted without a test having to do anything.
        public var automaticPresenceSimulation: Bool
        /// The BE and BS flags of new credentials; nil leaves the browser's default (false).
        public var defaultBackupEligibility: Bool?
        public var defaultBackupState: Bool?

        /// By default, a platform authenticator with user verification, such as a phone's.
        public init(
            protocol: CTAP = .ctap2,
            transport: Transport = .internal,
            hasResidentKey: Bool = true,
            hasUserVerification: Bool = true,
            isUserVerified: Bool = true,
            automaticPresenceSimulation: Bool = true,
            defaultBackupEligibility: Bool? = nil,
            defaultBackupState: Bool? = nil
        ) {
            self.protocol = `protocol`
            self.transport = transport
            self.hasResidentKey = hasResidentKey
            self.hasUserVerification = hasUserVerification
            self.isUserVerified = isUserVerified
            self.automaticPresenceSimulation = automaticPresenceSimulation
            self.defaultBackupEligibility = defaultBackupEligibility
            self.defaultBackupState = defaultBackupState
        }

        /// An old USB security key: U2F, no discoverable credentials, no user verification.
        public static let securityKey = Options(
            protocol: .u2f,
            transport: .usb,
            hasResidentKey: false,
            hasUserVerification: false,
            isUserVerified: false
        )

        var json: JSON {
            var options: [String: JSON] = [
                "protocol": .string(`protocol`.rawValue), "transport": .string(transport.rawValue),
                "hasResidentKey": .bool(hasResidentKey), "hasUserVerification": .bool(hasUserVerification),
                "isUserVerified": .bool(isUserVerified),
                "automaticPresenceSimulation": .bool(automaticPresenceSimulation),
            ]
            if let defaultBackupEligibility { options["defaultBackupEligibility"] = .bool(defaultBackupEligibility) }
            if let defaultBackupState { options["defaultBackupState"] = .bool(defaultBackupState) }
            return .object(options)
        }
    }

    /// A credential the authenticator holds.
    public struct Credential: Sendable, Hashable {
        /// The credential ID, base64url-encoded as in `PublicKeyCredential.id`.
        public let id: String
        public let rpId: String?
        /// The user handle, base64url-encoded; nil for a credential that is not discoverable.
        public let userHandle: String?
        public let isResidentCredential: Bool
        public let signCount: Int
        public let backupEligibility: Bool?
        public let backupState: Bool?
    }

    /// The credentials it holds now.
    public func credentials() async throws(BrowserError) -> [Credential] {
        let reply = try await page.send("WebAuthn.getCredentials", ["authenticatorId": .string(id)])
        return (reply["credentials"]?.array ?? []).map { credential in
            Credential(
                id: base64URL(credential["credentialId"]?.string ?? ""),
                rpId: credential["rpId"]?.string,
                userHandle: credential["userHandle"]?.string.flatMap { $0.isEmpty ? nil : base64URL($0) },
                isResidentCredential: credential["isResidentCredential"]?.bool ?? false,
                signCount: credential["signCount"]?.int ?? 0,
                backupEligibility: credential["backupEligibility"]?.bool,
                backupState: credential["backupState"]?.bool
            )
        }
    }

    /// Whether the next user verification succeeds (a wrong fingerprint, when false).
    public func setUserVerified(_ verified: Bool) async throws(BrowserError) {
        try await page.send(
            "WebAuthn.setUserVerified",
            ["authenticatorId": .string(id), "isUserVerified": .bool(verified)]
        )
    }

    /// Forgets every credential it holds (a reset or lost device).
    public func clearCredentials() async throws(BrowserError) {
        try await page.send("WebAuthn.clearCredentials", ["authenticatorId": .string(id)])
    }

    /// Unplugs it: the browser no longer offers it.
    public func remove() async throws(BrowserError) {
        try await page.send("WebAuthn.removeVirtualAuthenticator", ["authenticatorId": .string(id)])
    }
}

/// DevTools sends binary fields in standard base64; WebAuthn's JSON uses base64url without padding.
private func base64URL(_ base64: String) -> String {
    String(
        base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .prefix { $0 != "=" }
    )
}
