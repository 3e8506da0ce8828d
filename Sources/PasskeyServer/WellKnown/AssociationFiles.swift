import Foundation

/// The association files a relying party hosts so that its apps may use its passkeys (DESIGN §4), generated
/// from the same configuration as the origin allowlist.
public struct AssociationFiles: Sendable {
    public let configuration: ServerConfiguration

    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// `/.well-known/apple-app-site-association`: `webcredentials` for each iOS app, and `applinks` for each one that
    /// names `appLinkPaths` (one `details` entry per app: its `appIDs` and a `components` entry per path), so that a
    /// link to one of those paths — a handoff's `crossDevice.linkBase` — opens the app.
    public var appleAppSiteAssociation: [UInt8] {
        get throws(APIError) {
            var file: [String: Any] = ["webcredentials": ["apps": configuration.appleApps.map(\.appID)]]
            let linking = configuration.appleApps.compactMap { app in
                app.appLinkPaths.map { paths in
                    ["appIDs": [app.appID], "components": paths.map { ["/": $0] }] as [String: Any]
                }
            }
            if !linking.isEmpty { file["applinks"] = ["details": linking] }
            return try Self.json(file)
        }
    }

    /// `/.well-known/assetlinks.json`: credential sharing and app links for each Android app.
    public var assetLinks: [UInt8] {
        get throws(APIError) {
            try Self.json(
                configuration.androidApps.map { app in
                    [
                        "relation": [
                            "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
                        ],
                        "target": [
                            "namespace": "android_app", "package_name": app.packageName,
                            "sha256_cert_fingerprints": app.sha256CertFingerprints,
                        ],
                    ] as [String: Any]
                }
            )
        }
    }

    /// `/.well-known/webauthn`: the related origins that may use this RP ID (WebAuthn L3 §5.11).
    public var relatedOrigins: [UInt8] {
        get throws(APIError) {
            try Self.json(["origins": configuration.webOrigins + configuration.relatedOrigins])
        }
    }

    /// These objects hold only strings and lists and objects of them, which always serialize; should one not,
    /// the file is answered with a 500, not a crash.
    static func json(_ object: Any) throws(APIError) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            )
        else { throw APIError.unexpected }
        return Array(data)
    }
}
