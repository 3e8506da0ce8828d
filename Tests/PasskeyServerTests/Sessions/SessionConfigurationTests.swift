import Foundation
import PasskeyServer
import Testing

/// The `sessions` section of the configuration file: its defaults, its members, and refusals that name the field.
@Suite("Token sessions: configuration")
struct SessionConfigurationTests {
    static func validated(_ json: String) throws(ConfigurationError) -> ServerConfiguration {
        let configuration = try ServerConfiguration(jsonData: Data(json.utf8))
        try configuration.validate()
        return configuration
    }

    @Test("the defaults, and every member read from the file")
    func members() throws {
        let defaults = try Self.validated("{}").sessions
        #expect(defaults.accessTokenSeconds == 600)
        #expect(defaults.refreshTokenSeconds == 30 * 86_400)
        #expect(defaults.maximumSessionSeconds == 90 * 86_400)
        #expect(defaults.issuer == nil && defaults.audience == nil)
        let set = try Self.validated(
            """
            {"sessions": {"accessTokenSeconds": 300, "refreshTokenSeconds": 3600, "maximumSessionSeconds": 7200,
             "issuer": "https://id.example.com", "audience": "api.example.com"}}
            """
        ).sessions
        #expect(set.accessTokenSeconds == 300 && set.refreshTokenSeconds == 3600 && set.maximumSessionSeconds == 7200)
        #expect(set.issuer == "https://id.example.com" && set.audience == "api.example.com")
    }

    @Test(
        "out-of-range and malformed settings are refused, naming the field",
        arguments: [
            (#"{"sessions": {"accessTokenSeconds": 30}}"#, "sessions.accessTokenSeconds"),
            (#"{"sessions": {"accessTokenSeconds": 7200}}"#, "sessions.accessTokenSeconds"),
            (#"{"sessions": {"refreshTokenSeconds": 60}}"#, "sessions.refreshTokenSeconds"),
            (
                #"{"sessions": {"refreshTokenSeconds": 7200, "maximumSessionSeconds": 3600}}"#,
                "sessions.maximumSessionSeconds"
            ),
            (#"{"sessions": {"issuer": "https://id example.com"}}"#, "sessions.issuer"),
            (#"{"sessions": {"audience": ""}}"#, "sessions.audience"),
            (#"{"sessions": {"lifetime": 60}}"#, "sessions.lifetime"),
        ]
    )
    func refused(json: String, field: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.validated(json) }
        #expect(error?.field == field)
    }
}
