import Crypto
import Hummingbird
import WebAuthn

/// The pages' style sheet and scripts, compiled into the server so that one binary serves everything. Served at
/// `/assets/NAME` with an ETag, so browsers revalidate instead of downloading again.
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

    static let all: [String: Asset] = [
        "passkeys.css": Asset("text/css; charset=utf-8", styleSheet),
        "passkeys.js": Asset("text/javascript; charset=utf-8", messagesScript + "\n" + ceremonyScript),
        "demo.js": Asset("text/javascript; charset=utf-8", demoScript),
        "account.js": Asset("text/javascript; charset=utf-8", accountScript),
        "console.js": Asset("text/javascript; charset=utf-8", consoleScript),
    ]

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
