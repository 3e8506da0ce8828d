import Foundation
import PasskeyServer
import PasskeyStorage
import Testing

/// The `recovery` settings: decoded from a configuration file with their defaults, each checked naming its field.
struct RecoveryConfigurationTests {
    @Test("defaults: enabled, 15 minutes, revoke all, 3 recoveries a day")
    func defaults() throws {
        let recovery = try ServerConfiguration(jsonData: Data("{}".utf8)).recovery
        #expect(recovery.enabled)
        #expect(recovery.attemptLifetime == 900)
        #expect(recovery.revoke == .all)
        #expect(recovery.maxAttemptsPerUser == 3)
        #expect(recovery.attemptWindow == 86_400)
    }

    @Test("a file sets them, in every format")
    func fromAFile() throws {
        let yaml = """
            recovery:
              enabled: false
              attemptLifetime: 600
              revoke: deviceBound
              maxAttemptsPerUser: 5
              attemptWindow: 3600
            """
        let recovery = try ServerConfiguration(data: Data(yaml.utf8), format: .yaml).recovery
        #expect(!recovery.enabled)
        #expect(recovery.attemptLifetime == 600)
        #expect(recovery.revoke == .deviceBound)
        #expect(recovery.maxAttemptsPerUser == 5)
        #expect(recovery.attemptWindow == 3600)
        let toml = "[recovery]\nrevoke = \"none\"\n"
        #expect(
            try ServerConfiguration(data: Data(toml.utf8), format: .toml).recovery.revoke == RecoveryRevocation.none
        )
    }

    @Test(
        "a bad value is refused naming its field",
        arguments: [
            (#"{"recovery": {"revoke": "some"}}"#, "recovery.revoke"),
            (#"{"recovery": {"attemptLifetime": 10}}"#, "recovery.attemptLifetime"),
            (#"{"recovery": {"maxAttemptsPerUser": 0}}"#, "recovery.maxAttemptsPerUser"),
            (#"{"recovery": {"attemptWindow": 5}}"#, "recovery.attemptWindow"),
            (#"{"recovery": {"tokenLength": 5}}"#, "recovery.tokenLength"),
        ]
    )
    func refused(json: String, field: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(jsonData: Data(json.utf8)).validate()
        }
        #expect(error?.field == field, "\(String(describing: error))")
    }
}
