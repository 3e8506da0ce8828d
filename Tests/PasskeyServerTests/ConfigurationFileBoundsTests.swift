import Foundation
import PasskeyServer
import Testing

/// Configuration files are bounded (size, depth, values) the same way in every format, and `load(file:)` picks the
/// format from the file's extension.
struct ConfigurationFileBoundsTests {
    // MARK: Bounds

    @Test(arguments: [ConfigurationFileFormat.json, .yaml, .toml])
    func aFileOverTheSizeLimitIsRefused(_ format: ConfigurationFileFormat) throws {
        let start = format == .toml ? "# " : format == .json ? "{}" : "{}\n# "
        let limit = ConfigurationFileFormat.maximumFileBytes
        let atLimit = start + String(repeating: format == .json ? " " : "x", count: limit - start.utf8.count)
        #expect(try ConfigurationFileFormatTests.decode(atLimit, format) == ServerConfiguration())
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationFileFormatTests.decode(atLimit + " ", format)
        }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("larger than 1 MiB") == true)
    }

    @Test(arguments: [
        (
            ConfigurationFileFormat.yaml,
            "policy: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        ),
        (.toml, "policy = " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)),
    ])
    func deepNestingIsRefused(_ format: ConfigurationFileFormat, _ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, format) }
        #expect(error?.message.contains("nested more than 64 levels") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (ConfigurationFileFormat.yaml, "policy: " + String(repeating: "[", count: 100_000)),
        (.toml, "policy = " + String(repeating: "[", count: 100_000)),
        (.json, #"{"policy": "# + String(repeating: "[", count: 100_000)),
    ])
    func nestingBeyondTheParsersOwnLimitIsASyntaxError(_ format: ConfigurationFileFormat, _ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFileFormatTests.decode(text, format) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid \(format)") == true, "\(String(describing: error))")
    }

    @Test(arguments: [ConfigurationFileFormat.yaml, .toml])
    func textThatIsNotUTF8IsRefused(_ format: ConfigurationFileFormat) {
        for data in [Data([0x72, 0x70, 0xFF, 0xFE]), Data("rpName = \"a\"\u{0}\nport = 1".utf8)] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration(data: data, format: format)
            }
            #expect(error?.message.contains("UTF-8 text without NUL bytes") == true)
        }
    }

    // MARK: Choosing the format

    @Test(arguments: [
        ("json", ConfigurationFileFormat.json), ("JSON", .json), ("yaml", .yaml), ("yml", .yaml), ("YML", .yaml),
        ("toml", .toml), ("Toml", .toml),
    ])
    func theExtensionNamesTheFormat(_ pathExtension: String, _ format: ConfigurationFileFormat) {
        #expect(ConfigurationFileFormat(pathExtension: pathExtension) == format)
    }

    @Test(arguments: ["", "ini", "jsn", "yaml~", "conf", "txt"])
    func otherExtensionsAreNoFormat(_ pathExtension: String) {
        #expect(ConfigurationFileFormat(pathExtension: pathExtension) == nil)
    }

    @Test(arguments: [
        ("passkeys.json", ConfigurationFileFormat.json), ("passkeys.yaml", .yaml), ("passkeys.YML", .yaml),
        ("passkeys.toml", .toml),
    ])
    func loadingReadsTheFormatTheExtensionNames(_ name: String, _ format: ConfigurationFileFormat) throws {
        let text = try #require(ConfigurationFileFormatTests.full[format])
        let configuration = try ConfigurationTests.withFile(text, named: name) { path in
            try ServerConfiguration.load(file: path, environment: ["PASSKEYS_HOST": "127.0.0.1"])
        }
        var expected = ConfigurationFileFormatTests.expected
        expected.host = "127.0.0.1"
        #expect(configuration == expected)
    }

    @Test(arguments: ["passkeys.ini", "passkeys", "passkeys.json.bak"])
    func loadingAFileWithAnotherExtensionNamesTheAcceptedOnes(_ name: String) throws {
        let error = try ConfigurationTests.withFile("{}", named: name) { path in
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(file: path, environment: [:]) }
        }
        #expect(error?.field == "--config")
        #expect(error?.message.contains(".json, .yaml, .yml, .toml") == true, "\(String(describing: error))")
    }

    @Test func loadingReadsNoMoreThanTheLimit() throws {
        let tooLarge = String(repeating: "#", count: 3 * ConfigurationFileFormat.maximumFileBytes)
        let error = try ConfigurationTests.withFile(tooLarge, named: "passkeys.yaml") { path in
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(file: path, environment: [:]) }
        }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("larger than") == true)
    }
}
