/// Keeps base64url values that start with `-` from being read as options.
///
/// A base64url credential id, challenge, key or user handle starts with `-` one time in 64. ArgumentParser
/// reads such a token as a group of short flags, so `-hT3…` would show help instead of running the command.
/// Before parsing, a value after an option that takes base64url is attached to it (`--challenge=-hT3…`), and
/// a `keys delete` id is moved behind a `--` terminator.
enum Base64URLArguments {
    /// The options whose value is base64url.
    static let options: Set<String> = ["--challenge", "--public-key", "--credential-id", "--user-handle"]

    static func normalize(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let next = arguments.index(after: index)
            if options.contains(argument), next < arguments.endIndex, arguments[next].hasPrefix("-") {
                result.append("\(argument)=\(arguments[next])")
                index = arguments.index(after: next)
            } else {
                result.append(argument)
                index = next
            }
        }
        return moveDeletedIDBehindTerminator(result)
    }

    /// `keys delete ID [--key-store PATH]`: an ID starting with `-` goes after `--`, the options before it.
    private static func moveDeletedIDBehindTerminator(_ arguments: [String]) -> [String] {
        guard arguments.count > 2, arguments[0] == "keys", arguments[1] == "delete", !arguments.contains("--") else {
            return arguments
        }
        var options: [String] = []
        var positionals: [String] = []
        var rest = arguments.dropFirst(2)[...]
        while let argument = rest.popFirst() {
            if argument == "--key-store", let value = rest.popFirst() {
                options += [argument, value]
            } else if argument.hasPrefix("--") || argument == "-h" {
                options.append(argument)
            } else {
                positionals.append(argument)
            }
        }
        guard positionals.contains(where: { $0.hasPrefix("-") }) else { return arguments }
        return ["keys", "delete"] + options + ["--"] + positionals
    }
}
