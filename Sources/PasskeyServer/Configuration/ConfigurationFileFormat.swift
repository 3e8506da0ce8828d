import Foundation

/// The language a configuration file is written in: JSON, YAML or TOML, chosen by the file's extension.
///
/// Each format is read into the same JSON-compatible tree (objects, arrays, strings, integers, finite numbers,
/// booleans, null), which ``ServerConfiguration/init(data:format:)`` checks and decodes the same way, so a setting
/// means the same and is refused with the same message whatever the file's format.
public struct ConfigurationFileFormat: Sendable, Hashable, CustomStringConvertible {
    enum Language: Sendable, Hashable { case json, yaml, toml }
    let language: Language

    public static let json = Self(language: .json)
    public static let yaml = Self(language: .yaml)
    public static let toml = Self(language: .toml)

    /// The format a file name's extension stands for: `json`, `yaml` or `yml`, `toml` (in any case); nil otherwise.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json": language = .json
        case "yaml", "yml": language = .yaml
        case "toml": language = .toml
        default: return nil
        }
    }

    private init(language: Language) { self.language = language }

    /// The extensions ``init(pathExtension:)`` accepts, for messages.
    static let pathExtensions = ["json", "yaml", "yml", "toml"]

    /// The largest configuration file read, whatever its format: 1 MiB.
    public static let maximumFileBytes = 1 << 20

    /// Files nest at most this deep (the top-level object is level 1) and hold at most `maximumValues` values,
    /// counting a YAML alias's values again each time it is used.
    static let maximumDepth = 64
    static let maximumValues = 100_000

    public var description: String {
        switch language {
        case .json: "JSON"
        case .yaml: "YAML"
        case .toml: "TOML"
        }
    }

    /// The file's top-level object as a JSON-compatible tree; throws for syntax errors (naming the format and, when
    /// the parser says, the line and column) and for values that have no JSON form (naming the field).
    func tree(from data: Data) throws(ConfigurationError) -> [String: Any] {
        guard data.count <= Self.maximumFileBytes else {
            throw ConfigurationError(
                field: "(file)",
                "is larger than 1 MiB, the limit for a configuration file"
            )
        }
        if language == .json { return try Self.jsonTree(data) }
        guard let text = String(data: data, encoding: .utf8), !text.utf8.contains(0) else {
            throw ConfigurationError(field: "(file)", "is not valid \(self): it must be UTF-8 text without NUL bytes")
        }
        return language == .yaml ? try Self.yamlTree(text) : try Self.tomlTree(text)
    }

    private static func jsonTree(_ data: Data) throws(ConfigurationError) -> [String: Any] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw ConfigurationError(field: "(file)", "is not valid JSON" + (detail.map { ": \($0)" } ?? ""))
        }
        guard let object = value as? [String: Any] else {
            throw ConfigurationError(field: "(file)", "is not a JSON object; write the settings inside { }")
        }
        return object
    }
}

/// The position of a value in the tree, written as ``ConfigurationError/field`` names it: `policy.algorithms[1]`.
struct ConfigurationPath {
    private(set) var text = ""
    private(set) var depth = 1

    func member(_ key: String) -> Self {
        Self(text: text.isEmpty ? key : "\(text).\(key)", depth: depth + 1)
    }

    func element(_ index: Int) -> Self { Self(text: "\(text)[\(index)]", depth: depth + 1) }

    /// The field for errors about the whole file.
    var field: String { text.isEmpty ? "(file)" : text }
}

/// Counts the values a YAML or TOML document is read into, against ``ConfigurationFileFormat``'s bounds.
struct ConfigurationTreeBudget {
    private var values = 0

    mutating func spend(at path: ConfigurationPath) throws(ConfigurationError) {
        values += 1
        guard values <= ConfigurationFileFormat.maximumValues else {
            throw ConfigurationError(
                field: path.field,
                "makes the file hold more than \(ConfigurationFileFormat.maximumValues) values, the limit"
            )
        }
        guard path.depth <= ConfigurationFileFormat.maximumDepth else {
            throw ConfigurationError(
                field: path.field,
                "is nested more than \(ConfigurationFileFormat.maximumDepth) levels deep, the limit"
            )
        }
    }
}
