import Foundation
import WebAuthn

extension ServerConfiguration {
    /// Checks every field; the first problem is thrown, naming the field. Each section checks itself at its path;
    /// what joins two sections is checked here. (The database was checked when its setting was parsed.)
    public func validate() throws(ConfigurationError) {
        do {
            _ = try RequestOptionsBuilder(relyingPartyID: rpId).build(challenge: [UInt8](repeating: 0, count: 16))
        } catch {
            throw ConfigurationError(field: "rpId", "is not a valid RP ID: \(error.reason)")
        }
        guard !rpName.isEmpty else { throw ConfigurationError(field: "rpName", "must not be empty") }
        guard !webOrigins.isEmpty || !androidApps.isEmpty || !appleApps.isEmpty else {
            throw ConfigurationError(field: "webOrigins", "must list at least one origin (or configure an app)")
        }
        for (index, origin) in webOrigins.enumerated() {
            try Self.validateOrigin(origin, field: "webOrigins[\(index)]", rpId: rpId, mustMatchRP: true)
        }
        for (index, origin) in relatedOrigins.enumerated() {
            try Self.validateOrigin(origin, field: "relatedOrigins[\(index)]", rpId: rpId, mustMatchRP: false)
        }
        for (index, app) in appleApps.enumerated() { try app.validate(at: "appleApps[\(index)]") }
        for (index, app) in androidApps.enumerated() { try app.validate(at: "androidApps[\(index)]") }
        try requireInRange(port, 0...65535, "port", "must be 1 to 65535, or 0 for a free port the system chooses")
        for (index, key) in apiKeys.enumerated() { try key.validate(at: "apiKeys[\(index)]") }
        try policy.validate(at: "policy")
        try expiries.validate(at: "expiries")
        try limits.validate(at: "limits")
        try retention.validate(at: "retention")
        try audit.validate(at: "audit")
        try web.validate(at: "web")
        try identityVerification.validate(at: "identityVerification", rpId: rpId)
        let requirements = [
            ("policy.stepUp.requireIdentityVerification", policy.stepUp.requireIdentityVerification),
            ("policy.enrollment.requireIdentityVerification", policy.enrollment.requireIdentityVerification),
        ]
        for (field, required) in requirements where required && identityVerification.provider == .disabled {
            throw ConfigurationError(
                field: field,
                "needs an identity-verification provider: set identityVerification.provider"
            )
        }
        try crossDevice.validate(at: "crossDevice")
        try recovery.validate(at: "recovery")
        try webhooks.validate(at: "webhooks")
        try sessions.validate(at: "sessions")
    }

    static func validateOrigin(
        _ origin: String,
        field: String,
        rpId: String,
        mustMatchRP: Bool
    ) throws(ConfigurationError) {
        guard let components = URLComponents(string: origin), let scheme = components.scheme,
            let host = components.host,
            components.path.isEmpty, components.query == nil, components.fragment == nil
        else {
            throw ConfigurationError(
                field: field,
                "must be an origin such as https://example.com (scheme, host, optional port; no path)"
            )
        }
        guard scheme == "https" || (scheme == "http" && (host == "localhost" || host == "127.0.0.1")) else {
            throw ConfigurationError(field: field, "must use https (http only for localhost)")
        }
        if mustMatchRP, host != rpId, !host.hasSuffix("." + rpId) {
            throw ConfigurationError(
                field: field,
                "must be '\(rpId)' or a subdomain of it; list other sites under relatedOrigins"
            )
        }
    }

    /// `AB:CD:…` → 32 bytes.
    static func fingerprintBytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ":")
        guard parts.count == 32 else { return nil }
        let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        return bytes.count == 32 ? bytes : nil
    }
}

extension ServerConfiguration.AppleApp {
    func validate(at path: String) throws(ConfigurationError) {
        guard teamId.count == 10, teamId.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw ConfigurationError(field: "\(path).teamId", "must be a 10-character Apple team ID")
        }
        guard !bundleId.isEmpty, !bundleId.contains(" ") else {
            throw ConfigurationError(field: "\(path).bundleId", "must be a bundle identifier such as com.example.app")
        }
        guard let appLinkPaths else { return }
        guard (1...50).contains(appLinkPaths.count) else {
            throw ConfigurationError(
                field: "\(path).appLinkPaths",
                "must list 1 to 50 paths, or be left out when the app opens no links"
            )
        }
        for (index, linkPath) in appLinkPaths.enumerated() {
            guard linkPath.hasPrefix("/"), linkPath.utf8.count <= 256,
                linkPath.unicodeScalars.allSatisfy({ (0x21..<0x7F).contains($0.value) && $0 != "#" })
            else {
                throw ConfigurationError(
                    field: "\(path).appLinkPaths[\(index)]",
                    "must be a path of this site such as /approve or /approve/* (starting with '/', at most 256 characters, no spaces or '#')"
                )
            }
        }
    }
}

extension ServerConfiguration.AndroidApp {
    func validate(at path: String) throws(ConfigurationError) {
        guard !packageName.isEmpty, !packageName.contains(" ") else {
            throw ConfigurationError(field: "\(path).packageName", "must be a package name such as com.example.app")
        }
        guard !sha256CertFingerprints.isEmpty else {
            throw ConfigurationError(
                field: "\(path).sha256CertFingerprints",
                "must list the app's signing certificate fingerprints"
            )
        }
        for (index, fingerprint) in sha256CertFingerprints.enumerated()
        where ServerConfiguration.fingerprintBytes(fingerprint) == nil {
            throw ConfigurationError(
                field: "\(path).sha256CertFingerprints[\(index)]",
                "must be 32 bytes in hex separated by ':' (as keytool prints it)"
            )
        }
    }
}

extension ServerConfiguration.APIKey {
    func validate(at path: String) throws(ConfigurationError) {
        guard !name.isEmpty else { throw ConfigurationError(field: "\(path).name", "must not be empty") }
        switch (key, sha256) {
        case (let secret?, nil):
            guard secret.count >= Self.minimumKeyLength else {
                throw ConfigurationError(field: "\(path).key", "must be at least \(Self.minimumKeyLength) characters")
            }
        case (nil, let hash?):
            guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
                throw ConfigurationError(field: "\(path).sha256", "must be 64 hex digits")
            }
        default:
            throw ConfigurationError(field: path, "needs exactly one of 'key' and 'sha256'")
        }
        guard let scopes else { return }
        guard !scopes.isEmpty else {
            throw ConfigurationError(
                field: "\(path).scopes",
                "must list at least one scope; leave it out (or list \"*\") for a key that may do everything"
            )
        }
        for (index, scope) in scopes.enumerated() where APIScope(rawValue: scope) == nil {
            throw ConfigurationError(
                field: "\(path).scopes[\(index)]",
                "is not a scope (known: \(APIScope.names.joined(separator: ", ")))"
            )
        }
    }
}

extension ServerConfiguration.Policy {
    func validate(at path: String) throws(ConfigurationError) {
        for (index, alg) in algorithms.enumerated()
        where !COSEAlgorithmIdentifier.supported.contains(COSEAlgorithmIdentifier(rawValue: alg)) {
            throw ConfigurationError(field: "\(path).algorithms[\(index)]", "is not a supported COSE algorithm")
        }
        guard !algorithms.isEmpty else { throw ConfigurationError(field: "\(path).algorithms", "must not be empty") }
        for format in trustAnchors.keys
        where !AttestationFormat.supported.contains(AttestationFormat(rawValue: format)) {
            throw ConfigurationError(field: "\(path).trustAnchors.\(format)", "is not a supported attestation format")
        }
        if let metadata {
            guard !metadata.blob.isEmpty else {
                throw ConfigurationError(field: "\(path).metadata.blob", "must name the metadata BLOB file")
            }
            guard !metadata.rootCertificates.isEmpty else {
                throw ConfigurationError(
                    field: "\(path).metadata.rootCertificates",
                    "must list the PEM file of the metadata service's root certificate"
                )
            }
        }
        try requireInRange(maxCredentialsPerUser, 1...100, "\(path).maxCredentialsPerUser")
    }
}

extension ServerConfiguration.Expiries {
    func validate(at path: String) throws(ConfigurationError) {
        let lifetimes = [
            ("challenge", challenge), ("registrationAttempt", registrationAttempt),
            ("authenticationSession", authenticationSession), ("resultToken", resultToken),
            ("reservation", reservation), ("handoff", handoff),
        ]
        for (name, seconds) in lifetimes {
            try requireInRange(seconds, 5...86_400, "\(path).\(name)", unit: "seconds")
        }
    }
}

extension ServerConfiguration.Limits {
    func validate(at path: String) throws(ConfigurationError) {
        let rates = [
            ("clientRequestsPerMinute", clientRequestsPerMinute, 1_000_000),
            ("failedAssertionsPerCredential", failedAssertionsPerCredential, 10_000),
            ("failedAssertionsPerIP", failedAssertionsPerIP, 1_000_000),
            ("failureWindowSeconds", failureWindowSeconds, 86_400),
            ("idleTimeoutSeconds", idleTimeoutSeconds, 3_600),
            ("requestHeaderTimeoutSeconds", requestHeaderTimeoutSeconds, 300),
            ("requestBodyTimeoutSeconds", requestBodyTimeoutSeconds, 3_600),
            ("maxConnections", maxConnections, 1_000_000),
            ("maxEventStreams", maxEventStreams, 1_000_000),
            ("maxEventStreamsPerHandoff", maxEventStreamsPerHandoff, 1_000),
            ("maxEventStreamsPerClient", maxEventStreamsPerClient, 1_000_000),
        ]
        for (name, value, maximum) in rates {
            try requireInRange(value, 1...maximum, "\(path).\(name)")
        }
        let bodyBytes = 1024...(16 * 1024 * 1024)
        try requireInRange(maxRequestBodyBytes, bodyBytes, "\(path).maxRequestBodyBytes", "must be 1 KiB to 16 MiB")
        for (index, proxy) in trustedProxies.enumerated() where IPAddressRange(proxy) == nil {
            throw ConfigurationError(
                field: "\(path).trustedProxies[\(index)]",
                "must be an IP address or a CIDR range such as 10.0.0.0/8"
            )
        }
    }
}

extension ServerConfiguration.Retention {
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(auditDays, 0...36_500, "\(path).auditDays", "must be 0 (keep forever) to 36500 days")
        try requireInRange(purgeIntervalSeconds, 10...86_400, "\(path).purgeIntervalSeconds", unit: "seconds")
        try requireInRange(purgeBatch, 1...100_000, "\(path).purgeBatch")
    }
}

extension ServerConfiguration.Audit {
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(checkpointIntervalSeconds, 10...86_400, "\(path).checkpointIntervalSeconds", unit: "seconds")
        if let checkpointKeyFile, checkpointKeyFile.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ConfigurationError(field: "\(path).checkpointKeyFile", "must name a file")
        }
    }
}

extension ServerConfiguration.Web {
    func validate(at path: String) throws(ConfigurationError) {
        if let sessionSecret, sessionSecret.utf8.count < 32 {
            throw ConfigurationError(field: "\(path).sessionSecret", "must be at least 32 characters")
        }
        try requireInRange(sessionLifetime, 60...2_592_000, "\(path).sessionLifetime", unit: "seconds")
        try requireInRange(maxSessionsPerUser, 1...1000, "\(path).maxSessionsPerUser")
        for (index, id) in operators.enumerated() where (try? Validation.userID(id)) == nil {
            throw ConfigurationError(
                field: "\(path).operators[\(index)]",
                "must be a user id (1 to 128 URL-safe characters)"
            )
        }
    }
}

extension ServerConfiguration.CrossDevice {
    /// The link a handoff opens is absolute, has no fragment (the token goes there), and is short enough for a QR
    /// code of version 10 with the token.
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(codeAttempts, 1...10, "\(path).codeAttempts")
        guard let linkBase else { return }
        guard let components = URLComponents(string: linkBase), let scheme = components.scheme, !scheme.isEmpty,
            components.fragment == nil, linkBase.utf8.count <= 120, !linkBase.contains(" ")
        else {
            throw ConfigurationError(
                field: "\(path).linkBase",
                "must be an absolute link without a fragment, at most 120 bytes, such as https://example.com/approve or myapp://approve"
            )
        }
    }
}

/// Throws `message` (by default "must be LOWER to UPPER", then `unit`) naming `field` when `value` is outside `range`.
func requireInRange(
    _ value: Int,
    _ range: ClosedRange<Int>,
    _ field: String,
    unit: String = "",
    _ message: String? = nil
) throws(ConfigurationError) {
    guard !range.contains(value) else { return }
    throw ConfigurationError(
        field: field,
        message ?? "must be \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " \(unit)")"
    )
}
