import WebAuthn

/// Encodes `clientDataJSON` (WebAuthn §5.8.1) the way browsers do (§5.8.1.2, "limited verification
/// algorithm"): the members `type`, `challenge`, `origin`, then `crossOrigin` and `topOrigin` when given, in that
/// order, without white space.
public enum ClientDataEncoding {
    /// - Parameters:
    ///   - extraMembers: members appended verbatim (`"name":value` JSON), for tests of tolerance.
    public static func encode(
        type: String,
        challenge: [UInt8],
        origin: String,
        crossOrigin: Bool? = nil,
        topOrigin: String? = nil,
        extraMembers: [String] = []
    ) -> [UInt8] {
        var members = [
            "\"type\":\(quoted(type))", "\"challenge\":\(quoted(Base64URL.encode(challenge)))",
            "\"origin\":\(quoted(origin))",
        ]
        if let crossOrigin { members.append("\"crossOrigin\":\(crossOrigin)") }
        if let topOrigin { members.append("\"topOrigin\":\(quoted(topOrigin))") }
        members += extraMembers
        return Array("{\(members.joined(separator: ","))}".utf8)
    }

    /// A JSON string as §5.8.1.2 serializes it: `"` and `\` escaped, other code points below U+0020 as `\u00xx`.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
