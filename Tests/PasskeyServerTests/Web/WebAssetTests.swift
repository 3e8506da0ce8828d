import Foundation
import HTTPTypes
import PasskeyServer
import Testing

/// The pages' style sheet and scripts are the package's resource files, served as they are.
struct WebAssetTests {
    /// `Sources/PasskeyServer/Resources/Web` in this checkout.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PasskeyServer/Resources/Web")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("each asset is its resource files, with its content type, an ETag, no-cache and nosniff")
    func servedFromResources() async throws {
        let expected: [(path: String, type: String, files: [String])] = [
            ("/assets/passkeys.css", "text/css; charset=utf-8", ["passkeys.css"]),
            ("/assets/passkeys.js", "text/javascript; charset=utf-8", ["messages.js", "ceremony.js"]),
            ("/assets/demo.js", "text/javascript; charset=utf-8", ["demo.js"]),
            ("/assets/account.js", "text/javascript; charset=utf-8", ["account.js"]),
            ("/assets/console.js", "text/javascript; charset=utf-8", ["console.js"]),
            ("/assets/recover.js", "text/javascript; charset=utf-8", ["recover.js"]),
            ("/assets/phone-sign-in.js", "text/javascript; charset=utf-8", ["phone-sign-in.js"]),
            ("/assets/approve.js", "text/javascript; charset=utf-8", ["approve.js"]),
        ]
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        #expect(Set(onDisk) == Set(expected.flatMap(\.files)), "every resource file is served, and only those")
        let server = try TestServer()
        try await server.withAPI { api in
            for asset in expected {
                let response = try await api.send(.get, asset.path)
                #expect(response.status == .ok, "\(asset.path)")
                #expect(response.headers[.contentType] == asset.type, "\(asset.path)")
                #expect(response.headers[.cacheControl] == "no-cache", "\(asset.path)")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(asset.path)")
                #expect(response.headers[.eTag] != nil, "\(asset.path)")
                #expect(response.text == (try asset.files.map(Self.file).joined()), "\(asset.path)")
            }
        }
    }
}
