import TOMLKit

/// TOML 1.0 files, read with TOMLKit (toml++). Dates, times and date-times have no JSON form and are refused,
/// naming the field, as are NaN and infinities; quoting a value keeps it a string.
extension ConfigurationFileFormat {
    static func tomlTree(_ text: String) throws(ConfigurationError) -> [String: Any] {
        // TOMLKit hands strings over as C strings, which would silently end at an escaped NUL.
        guard !text.contains("\\u0000"), !text.contains("\\U00000000") else {
            throw ConfigurationError(
                field: "(file)",
                "holds an escaped NUL character (\\u0000), which a setting cannot hold"
            )
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let begin = error.source.begin
            throw ConfigurationError(
                field: "(file)",
                "is not valid TOML: \(error.description) at line \(begin.line), column \(begin.column)"
            )
        } catch {
            throw ConfigurationError(field: "(file)", "is not valid TOML: \(error)")
        }
        var budget = ConfigurationTreeBudget()
        return try tomlObject(table, at: ConfigurationPath(), budget: &budget)
    }

    private static func tomlObject(
        _ table: TOMLTable,
        at path: ConfigurationPath,
        budget: inout ConfigurationTreeBudget
    ) throws(ConfigurationError) -> [String: Any] {
        // Keys and values side by side, not TOMLKit's iterator, which looks each key up again and traps on a miss.
        var object: [String: Any] = [:]
        for (key, value) in zip(table.keys, table.values) {
            object[key] = try tomlValue(value, at: path.member(key), budget: &budget)
        }
        return object
    }

    private static func tomlValue(
        _ value: TOMLValue,
        at path: ConfigurationPath,
        budget: inout ConfigurationTreeBudget
    ) throws(ConfigurationError) -> Any {
        try budget.spend(at: path)
        if let table = value.table { return try tomlObject(table, at: path, budget: &budget) }
        if let array = value.array {
            var elements: [Any] = []
            for (index, element) in array.enumerated() {
                elements.append(try tomlValue(element.tomlValue, at: path.element(index), budget: &budget))
            }
            return elements
        }
        if let string = value.string { return string }
        if let int = value.int { return int }
        if let bool = value.bool { return bool }
        if let double = value.double {
            guard double.isFinite else {
                throw ConfigurationError(field: path.field, "is not a finite number; nan and inf have no JSON form")
            }
            return double
        }
        throw ConfigurationError(
            field: path.field,
            "is a TOML \(value.type), which has no JSON form; quote it to make it a string"
        )
    }
}
