import Foundation
import HTTPTypes
import PasskeyServer
import Testing
import WebAuthn

/// `appleApps[].appLinkPaths`: the served apple-app-site-association's `applinks`, so that a link to one of the paths
/// — a handoff's `crossDevice.linkBase` — opens the app; and the paths' validation.
@Suite("Association file: app links")
struct AppLinksTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.appleApps = [
            .init(teamId: "ABCDE12345", bundleId: "com.example.app", appLinkPaths: ["/approve", "/approve/*"]),
            .init(teamId: "ZYXWV98765", bundleId: "com.example.other"),
        ]
        configuration.crossDevice.linkBase = "http://localhost:8080/approve"
    }

    @Test("applinks lists each app with paths, as Apple's details with appIDs and components")
    func appLinksAreServed() async throws {
        let server = try TestServer(configure: Self.configure)
        try await server.withAPI { api in
            let response = try await api.send(.get, "/.well-known/apple-app-site-association")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let file = try response.json()
            #expect(file.object?["webcredentials"]?.object?["apps"]?.array?.count == 2, "webcredentials stay")
            #expect(
                file.object?["applinks"]
                    == .object([
                        "details": .array([
                            .object([
                                "appIDs": .array([.string("ABCDE12345.com.example.app")]),
                                "components": .array([
                                    .object(["/": .string("/approve")]), .object(["/": .string("/approve/*")]),
                                ]),
                            ])
                        ])
                    ])
            )
        }
    }

    @Test("the paths are read from a configuration file")
    func pathsFromAFile() throws {
        let file = #"""
            {"appleApps": [{"teamId": "ABCDE12345", "bundleId": "com.example.app", "appLinkPaths": ["/approve"]}]}
            """#
        let configuration = try ServerConfiguration(jsonData: Data(file.utf8))
        try configuration.validate()
        #expect(configuration.appleApps.first?.appLinkPaths == ["/approve"])
    }

    @Test(
        "a path that is not one of this site's is refused, naming it",
        arguments: [
            ([], "appleApps[0].appLinkPaths"),
            (["approve"], "appleApps[0].appLinkPaths[0]"),
            (["/ok", "/with space"], "appleApps[0].appLinkPaths[1]"),
            (["/approve#token"], "appleApps[0].appLinkPaths[0]"),
            (["https://example.com/approve"], "appleApps[0].appLinkPaths[0]"),
        ]
    )
    func badPathsAreRefused(_ paths: [String], _ field: String) {
        var configuration = ServerConfiguration()
        configuration.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app", appLinkPaths: paths)]
        let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.field == field)
    }
}
