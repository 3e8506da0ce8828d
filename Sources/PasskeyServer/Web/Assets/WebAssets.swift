import Crypto
import Foundation
import Hummingbird
import WebAuthn

/// The pages' style sheet and scripts: package resources (`Resources/Web`), shipped beside the server's binary and
/// read once. Served at `/assets/NAME` with their content type, an ETag and `Cache-Control: no-cache`, so browsers
/// keep them and revalidate instead of downloading again.
///
/// - `passkeys.css`: one style sheet for every page: readable type, AA contrast, a visible focus ring, one column
///   on phones.
/// - `passkeys.js`: `messages.js` (what the pages tell the user for each outcome: the browser's, and every error
///   code the server sends) then `ceremony.js` (the browser half of every ceremony, shared by the pages).
/// - `demo.js`, `account.js`, `console.js`: each page's own script; `phone-sign-in.js` the demo's "Sign in with your
///   phone", `approve.js` the phone's approval page.
enum WebAssets {
    struct Asset: Sendable {
        let contentType: String
        let body: String
        let etag: String

        init(_ contentType: String, _ body: String) {
            self.contentType = contentType
            self.body = body
            self.etag = "\"" + Base64URL.encode(Array(SHA256.hash(data: Array(body.utf8))).prefix(12)) + "\""
        }
    }

    static let styleSheetType = "text/css; charset=utf-8"
    static let scriptType = "text/javascript; charset=utf-8"

    /// The served assets by name: those whose resource files were all found.
    static let all: [String: Asset] = {
        let served: [(name: String, type: String, files: [String])] = [
            ("passkeys.css", styleSheetType, ["passkeys.css"]),
            ("passkeys.js", scriptType, ["messages.js", "ceremony.js"]),
            ("demo.js", scriptType, ["demo.js"]),
            ("account.js", scriptType, ["account.js"]),
            ("console.js", scriptType, ["console.js"]),
            ("recover.js", scriptType, ["recover.js"]),
            ("phone-sign-in.js", scriptType, ["phone-sign-in.js"]),
            ("approve.js", scriptType, ["approve.js"]),
        ]
        var assets: [String: Asset] = [:]
        for asset in served {
            let parts = asset.files.compactMap(resource)
            guard parts.count == asset.files.count else { continue }
            assets[asset.name] = Asset(asset.type, parts.joined())
        }
        return assets
    }()

    /// The text of `Resources/Web/NAME`, or nil when the package's resources are not beside the binary.
    static func resource(_ name: String) -> String? {
        let file = name as NSString
        guard
            let url = Bundle.module.url(
                forResource: file.deletingPathExtension,
                withExtension: file.pathExtension,
                subdirectory: "Web"
            ),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func response(name: String, ifNoneMatch: String?) -> Response {
        guard let asset = all[name] else {
            return Response(
                status: .notFound,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: .init(string: "No such asset.\n"))
            )
        }
        var headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: asset.etag, .cacheControl: "no-cache",
            .init("X-Content-Type-Options")!: "nosniff",
        ]
        if ifNoneMatch == asset.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(asset.body.utf8.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(string: asset.body)))
    }
}
