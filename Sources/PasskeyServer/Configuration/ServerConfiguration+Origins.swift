import WebAuthn

extension ServerConfiguration {
    /// The expected-origin allowlist (DESIGN §4): web origins, related origins, `https://<rpId>` for iOS apps, and
    /// `android:apk-key-hash:<base64url SHA-256 of the signing certificate>` for each Android fingerprint.
    public var allowedOrigins: [String] {
        var origins = webOrigins + relatedOrigins
        if !appleApps.isEmpty { origins.append("https://\(rpId)") }
        for app in androidApps {
            for fingerprint in app.sha256CertFingerprints {
                if let bytes = Self.fingerprintBytes(fingerprint) {
                    origins.append("android:apk-key-hash:\(Base64URL.encode(bytes))")
                }
            }
        }
        var seen = Set<String>()
        return origins.filter { seen.insert($0).inserted }
    }
}
