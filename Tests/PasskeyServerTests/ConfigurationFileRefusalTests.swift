import Foundation
import PasskeyServer
import Testing

/// What YAML and TOML can say that JSON cannot: how it is read, or refused naming the field; and their syntax errors,
/// which name the format and the line and column.
struct ConfigurationFileRefusalTests {
    // MARK: YAML

    @Test func yamlReadsYesNoOnOffAsBooleansAsYAML11Does() throws {
        let words = try ConfigurationFileFormatTests.decode(
            "web: {demo: off, console: On}\npolicy: {allowSyncedCredentials: NO, requireTrustedAttestation: yes}",
            .yaml
        )
        #expect(words.policy.requireTrustedAttestation == true)
        #expect(words.web.demo == false)
        #expect(words.web.console == true)
        #expect(words.policy.allowSyncedCredentials == false)
        // So an unquoted word in a text setting is a boolean, and refused; quoted, it is text.
        let unquoted = #expect(throws: ConfigurationError.self) {
            try ConfigurationFileFormatTests.decode("rpName: yes", .yaml)
        }
        #expect(unquoted?.field == "rpName")
        #expect(unquoted?.message == "has the wrong type")
        #expect(try ConfigurationFileFormatTests.decode("rpName: 'yes'", .yaml).rpName == "yes")
        // Other words stay text; digits with a leading zero are a number, so a team ID must be quoted.
        #expect(try ConfigurationFileFormatTests.decode("rpName: y", .yaml).rpName == "y")
        let teamID = #expect(throws: ConfigurationError.self) {
            try ConfigurationFileFormatTests.decode(
                "appleApps: [{teamId: 0123456789, bundleId: com.example.app}]",
                .yaml
            )
        }
        #expect(teamID?.field == "appleApps[0].teamId")
    }

    @Test(arguments: [
        ("rpName: 2001-12-14", "rpName", "YAML timestamp (line 1, column 9)"),
        ("webOrigins:\n  - 2001-12-14t21:59:43.10-05:00", "webOrigins[0]", "YAML timestamp (line 2, column 5)"),
        ("rpName: !!binary aGVsbG8=", "rpName", "tag:yaml.org,2002:binary"),
        ("policy: !!set {packed}", "policy", "tag:yaml.org,2002:set"),
        ("rpName: !custom x", "rpName", "!custom"),
        ("1: x", "1", "not a string (line 1, column 1)"),
        ("policy:\n  true: x", "policy.true", "not a string (line 2, column 3)"),
        ("policy:\n  ? [a]\n  : x", "policy.?", "not a string"),
        ("limits: {maxRequestBodyBytes: .nan}", "limits.maxRequestBodyBytes", "finite"),
        ("port: -.inf", "port", "finite"),
        ("port: 99999999999999999999", "port", "integer that fits in 64 bits"),
    ])
    func yamlValuesWithNoJSONFormAreRefusedNamingTheField(_ text: String, _ field: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .yaml) }
        #expect(error?.field == field)
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("rpId: [example.com", "line 2, column 1"),
        ("rpId: example.com\n  rpName: x: y", "line 2, column 9"),
        ("rpId: a\nrpId: b", "'rpId' appears twice"),
        ("port: *undefined", "undefined alias"),
        ("\trpId: x", "line 1, column 1"),
        ("rpId: a\n---\nrpId: b", "single document"),
    ])
    func yamlSyntaxErrorsSayWhere(_ text: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .yaml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid YAML: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: ["", "# only a comment", "- rpId: example.com", "example.com", "~"])
    func aYAMLFileThatIsNotAMappingIsRefused(_ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .yaml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("not a YAML mapping") == true)
    }

    @Test func yamlAliasesAreReadButTheirExpansionIsBounded() throws {
        let shared = try ConfigurationFileFormatTests.decode(
            "webOrigins: &origins [http://localhost:8080]\nrelatedOrigins: *origins",
            .yaml
        )
        #expect(shared.relatedOrigins == ["http://localhost:8080"])
        // Nine levels of ten aliases each: a few hundred bytes that would expand to a billion values.
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]"
            )
        }
        let bomb = #expect(throws: ConfigurationError.self) {
            try ConfigurationFileFormatTests.decode(lines.joined(separator: "\n"), .yaml)
        }
        #expect(bomb?.message.contains("more than 100000 values") == true, "\(String(describing: bomb))")
    }

    // MARK: TOML

    @Test(arguments: [
        ("rpName = 1979-05-27", "rpName", "TOML date"),
        ("rpName = 07:32:00", "rpName", "TOML time"),
        ("webOrigins = [1979-05-27T07:32:00Z]", "webOrigins[0]", "TOML date-time"),
        ("[web]\nsessionSecret = 1979-05-27T00:32:00.999999-07:00", "web.sessionSecret", "TOML date-time"),
        ("[limits]\nmaxRequestBodyBytes = nan", "limits.maxRequestBodyBytes", "finite"),
        ("port = -inf", "port", "finite"),
    ])
    func tomlValuesWithNoJSONFormAreRefusedNamingTheField(_ text: String, _ field: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .toml) }
        #expect(error?.field == field)
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("rpId = ", "line 1"),
        ("rpId = \"example.com\"\n[policy\nsignCount = \"report\"", "line 2"),
        ("rpId = \"a\"\nrpId = \"b\"", "line 2"),
        ("rpId: \"example.com\"", "line 1"),
        ("port = 99999999999999999999", "line 1"),
    ])
    func tomlSyntaxErrorsSayWhere(_ text: String, _ line: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .toml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid TOML: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("at \(line), column ") == true, "\(String(describing: error))")
    }

    @Test(arguments: [#"rpId = "example.com\u0000.evil""#, #""rp\U00000000Id" = "example.com""#])
    func anEscapedNULInTOMLIsRefusedRatherThanCutShort(_ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, .toml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("NUL") == true)
    }
}
