import Foundation
import Yams

/// YAML files, read with Yams (libyaml) and its default YAML 1.1 resolver: plain `yes`/`no`, `on`/`off` and
/// `true`/`false` (in lower, title or upper case) are booleans, `0755` is an octal integer and `1:30` a
/// sexagesimal one. Values with no JSON form — timestamps, binary, sets and other tags, NaN and infinities, keys that
/// are not strings — are refused, naming the field; quoting a value keeps it a string.
extension ConfigurationFileFormat {
    static func yamlTree(_ text: String) throws(ConfigurationError) -> [String: Any] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .default, .default, .utf8)
        } catch let error as YamlError {
            throw ConfigurationError(field: "(file)", "is not valid YAML: \(describe(error))")
        } catch {
            throw ConfigurationError(field: "(file)", "is not valid YAML: \(error)")
        }
        guard let root, case .mapping(let mapping) = root, tagName(root) == .map else {
            throw ConfigurationError(
                field: "(file)",
                "is not a YAML mapping; write the settings as 'name: value' lines"
            )
        }
        var budget = ConfigurationTreeBudget()
        return try yamlObject(mapping, at: ConfigurationPath(), budget: &budget)
    }

    private static func yamlObject(
        _ mapping: Node.Mapping,
        at path: ConfigurationPath,
        budget: inout ConfigurationTreeBudget
    ) throws(ConfigurationError) -> [String: Any] {
        // Yams refuses a key that appears twice.
        var object: [String: Any] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key, tagName(key) == .str else {
                throw ConfigurationError(
                    field: path.member(key.string ?? "?").field,
                    "is a key that is not a string\(position(key)); quote it"
                )
            }
            object[scalar.string] = try yamlValue(value, at: path.member(scalar.string), budget: &budget)
        }
        return object
    }

    private static func yamlValue(
        _ node: Node,
        at path: ConfigurationPath,
        budget: inout ConfigurationTreeBudget
    ) throws(ConfigurationError) -> Any {
        try budget.spend(at: path)
        let tag = tagName(node)
        switch node {
        case .mapping(let mapping) where tag == .map:
            return try yamlObject(mapping, at: path, budget: &budget)
        case .sequence(let sequence) where tag == .seq:
            var array: [Any] = []
            for (index, element) in sequence.enumerated() {
                array.append(try yamlValue(element, at: path.element(index), budget: &budget))
            }
            return array
        case .scalar(let scalar):
            switch tag {
            case .str: return scalar.string
            case .null: return NSNull()
            case .bool: if let bool = Bool.construct(from: scalar) { return bool }
            case .int:
                if let int = Int.construct(from: scalar) { return int }
                throw ConfigurationError(field: path.field, "is not an integer that fits in 64 bits\(position(node))")
            case .float:
                if let double = Double.construct(from: scalar), double.isFinite { return double }
                throw ConfigurationError(
                    field: path.field,
                    "is not a finite number\(position(node)); NaN and infinity have no JSON form"
                )
            case .timestamp:
                throw ConfigurationError(
                    field: path.field,
                    "is a YAML timestamp\(position(node)), which has no JSON form; quote it to make it a string"
                )
            default: break
            }
        case .mapping, .sequence, .alias: break
        }
        throw ConfigurationError(
            field: path.field,
            "has the YAML type \(tag.rawValue)\(position(node)), which has no JSON form; use a string, number, "
                + "boolean, list or mapping"
        )
    }

    /// The node's tag, resolved by Yams's default resolver when the file leaves it implicit.
    private static func tagName(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    private static func position(_ node: Node) -> String {
        node.mark.map { " (line \($0.line), column \($0.column))" } ?? ""
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return "\(problem)\(context.map { " (\($0.text))" } ?? "") at line \(mark.line), column \(mark.column)"
        case .reader(let problem, let offset, _, _):
            return problem + (offset.map { " at byte \($0)" } ?? "")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return
                "'\(duplicates.joined(separator: "', '"))' appears twice in the mapping at line \(context.mark.line), "
                + "column \(context.mark.column)"
        default:
            return "\(error)"
        }
    }
}
