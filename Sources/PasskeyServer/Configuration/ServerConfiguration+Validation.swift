import Foundation
import WebAuthn

extension ServerConfiguration {
    /// Checks every field; the first problem is thrown, naming the field.
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
        for (index, app) in appleApps.enumerated() {
            guard app.teamId.count == 10, app.teamId.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
            else {
                throw ConfigurationError(field: "appleApps[\(index)].teamId", "must be a 10-character Apple team ID")
            }
            guard !app.bundleId.isEmpty, !app.bundleId.contains(" ") else {
                throw ConfigurationError(
                    field: "appleApps[\(index)].bundleId",
                    "must be a bundle identifier such as com.example.app"
                )
            }
        }
        for (index, app) in androidApps.enumerated() {
            guard !app.packageName.isEmpty, !app.packageName.contains(" ") else {
                throw ConfigurationError(
                    field: "androidApps[\(index)].packageName",
                    "must be a package name such as com.example.app"
                )
            }
            guard !app.sha256CertFingerprints.isEmpty else {
                throw ConfigurationError(
                    field: "androidApps[\(index)].sha256CertFingerprints",
                    "must list the app's signing certificate fingerprints"
                )
            }
            for (fingerprintIndex, fingerprint) in app.sha256CertFingerprints.enumerated()
            where Self.fingerprintBytes(fingerprint) == nil {
                throw ConfigurationError(
                    field: "androidApps[\(index)].sha256CertFingerprints[\(fingerprintIndex)]",
                    "must be 32 bytes in hex separated by ':' (as keytool prints it)"
                )
            }
        }
        guard (0...65535).contains(port) else {
            throw ConfigurationError(field: "port", "must be 1 to 65535, or 0 for a free port the system chooses")
        }
        guard
            try SQLiteDatabase(database) != nil || database.hasPrefix("postgres://")
                || database.hasPrefix("postgresql://") || database == "memory"
        else {
            throw ConfigurationError(field: "database", "must be sqlite:PATH, postgres://… or memory")
        }
        for (index, key) in apiKeys.enumerated() {
            guard !key.name.isEmpty else {
                throw ConfigurationError(field: "apiKeys[\(index)].name", "must not be empty")
            }
            switch (key.key, key.sha256) {
            case (let secret?, nil):
                guard secret.count >= 24 else {
                    throw ConfigurationError(field: "apiKeys[\(index)].key", "must be at least 24 characters")
                }
            case (nil, let hash?):
                guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
                    throw ConfigurationError(field: "apiKeys[\(index)].sha256", "must be 64 hex digits")
                }
            default:
                throw ConfigurationError(field: "apiKeys[\(index)]", "needs exactly one of 'key' and 'sha256'")
            }
        }
        for (index, alg) in policy.algorithms.enumerated()
        where !COSEAlgorithmIdentifier.supported.contains(COSEAlgorithmIdentifier(rawValue: alg)) {
            throw ConfigurationError(field: "policy.algorithms[\(index)]", "is not a supported COSE algorithm")
        }
        guard !policy.algorithms.isEmpty else {
            throw ConfigurationError(field: "policy.algorithms", "must not be empty")
        }
        for format in policy.trustAnchors.keys
        where !AttestationFormat.supported.contains(AttestationFormat(rawValue: format)) {
            throw ConfigurationError(field: "policy.trustAnchors.\(format)", "is not a supported attestation format")
        }
        if let metadata = policy.metadata {
            guard !metadata.blob.isEmpty else {
                throw ConfigurationError(field: "policy.metadata.blob", "must name the metadata BLOB file")
            }
            guard !metadata.rootCertificates.isEmpty else {
                throw ConfigurationError(
                    field: "policy.metadata.rootCertificates",
                    "must list the PEM file of the metadata service's root certificate"
                )
            }
        }
        guard (1...100).contains(policy.maxCredentialsPerUser) else {
            throw ConfigurationError(field: "policy.maxCredentialsPerUser", "must be 1 to 100")
        }
        let lifetimes = [
            ("challenge", expiries.challenge), ("registrationAttempt", expiries.registrationAttempt),
            ("authenticationSession", expiries.authenticationSession), ("resultToken", expiries.resultToken),
            ("reservation", expiries.reservation), ("handoff", expiries.handoff),
        ]
        for (name, seconds) in lifetimes where !(5...86_400).contains(seconds) {
            throw ConfigurationError(field: "expiries.\(name)", "must be 5 to 86400 seconds")
        }
        let rates = [
            ("clientRequestsPerMinute", limits.clientRequestsPerMinute, 1_000_000),
            ("failedAssertionsPerCredential", limits.failedAssertionsPerCredential, 10_000),
            ("failedAssertionsPerIP", limits.failedAssertionsPerIP, 1_000_000),
            ("failureWindowSeconds", limits.failureWindowSeconds, 86_400),
            ("idleTimeoutSeconds", limits.idleTimeoutSeconds, 3_600),
            ("requestHeaderTimeoutSeconds", limits.requestHeaderTimeoutSeconds, 300),
            ("requestBodyTimeoutSeconds", limits.requestBodyTimeoutSeconds, 3_600),
            ("maxConnections", limits.maxConnections, 1_000_000),
            ("maxEventStreams", limits.maxEventStreams, 1_000_000),
            ("maxEventStreamsPerHandoff", limits.maxEventStreamsPerHandoff, 1_000),
            ("maxEventStreamsPerClient", limits.maxEventStreamsPerClient, 1_000_000),
        ]
        for (name, value, maximum) in rates where !(1...maximum).contains(value) {
            throw ConfigurationError(field: "limits.\(name)", "must be 1 to \(maximum)")
        }
        guard (1024...(16 * 1024 * 1024)).contains(limits.maxRequestBodyBytes) else {
            throw ConfigurationError(field: "limits.maxRequestBodyBytes", "must be 1 KiB to 16 MiB")
        }
        for (index, proxy) in limits.trustedProxies.enumerated() where IPAddressRange(proxy) == nil {
            throw ConfigurationError(
                field: "limits.trustedProxies[\(index)]",
                "must be an IP address or a CIDR range such as 10.0.0.0/8"
            )
        }
        let retentionBounds = [
            ("auditDays", retention.auditDays, 0...36_500, "0 (keep forever) to 36500 days"),
            ("purgeIntervalSeconds", retention.purgeIntervalSeconds, 10...86_400, "10 to 86400 seconds"),
            ("purgeBatch", retention.purgeBatch, 1...100_000, "1 to 100000"),
        ]
        for (name, value, range, bounds) in retentionBounds where !range.contains(value) {
            throw ConfigurationError(field: "retention.\(name)", "must be \(bounds)")
        }
        if let secret = web.sessionSecret, secret.utf8.count < 32 {
            throw ConfigurationError(field: "web.sessionSecret", "must be at least 32 characters")
        }
        guard (60...2_592_000).contains(web.sessionLifetime) else {
            throw ConfigurationError(field: "web.sessionLifetime", "must be 60 to 2592000 seconds")
        }
        guard (1...1000).contains(web.maxSessionsPerUser) else {
            throw ConfigurationError(field: "web.maxSessionsPerUser", "must be 1 to 1000")
        }
        for (index, id) in web.operators.enumerated() where (try? Validation.userID(id)) == nil {
            throw ConfigurationError(
                field: "web.operators[\(index)]",
                "must be a user id (1 to 128 URL-safe characters)"
            )
        }
        try validateIdentityVerification()
        try validateCrossDevice()
        try validateRecovery()
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

extension ServerConfiguration {
    /// `crossDevice`: the link a handoff opens is absolute, has no fragment (the token goes there), and is short
    /// enough for a QR code of version 10 with the token.
    func validateCrossDevice() throws(ConfigurationError) {
        guard (1...10).contains(crossDevice.codeAttempts) else {
            throw ConfigurationError(field: "crossDevice.codeAttempts", "must be 1 to 10")
        }
        guard let linkBase = crossDevice.linkBase else { return }
        guard let components = URLComponents(string: linkBase), let scheme = components.scheme, !scheme.isEmpty,
            components.fragment == nil, linkBase.utf8.count <= 120, !linkBase.contains(" ")
        else {
            throw ConfigurationError(
                field: "crossDevice.linkBase",
                "must be an absolute link without a fragment, at most 120 bytes, such as https://example.com/approve or myapp://approve"
            )
        }
    }
}
