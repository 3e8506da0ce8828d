import Foundation

/// What the OpenAPI tests need from `docs/openapi.yaml`, read line by line (the package has no YAML parser, and
/// the tests add no dependency).
///
/// The reader relies on the fixed layout the document keeps (a comment above its `paths:` says so too):
///
/// - `paths:` at column 0, ended by the next line at column 0 (other than a comment);
/// - each path at 2 spaces, unquoted (`  /v1/registrations:`); keys at 4 spaces other than HTTP methods (such as
///   `parameters:`) are skipped;
/// - each operation at 4 spaces (`    post:`); inside it, at 6 spaces, `security: []` for a public route or
///   `security:` followed by one `        - apiKey: []` or `        - clientToken: []` line, and `responses:`
///   with each status at 8 spaces and quoted (`        '404':`); everything indented deeper belongs to that
///   status's response;
/// - under `components:` → `  responses:`, each shared response at 4 spaces (`    NotFound:`);
/// - under `components:` → `  schemas:`, `    ErrorCode:` with an `      enum:` of one code a line
///   (`        - NOT_FOUND`).
struct OpenAPIDocument: Sendable {
    enum Security: String, Sendable {
        /// `security: []`: a public route.
        case open
        case apiKey
        case clientToken
    }

    struct Operation: Sendable {
        /// Upper case, as `HTTPRequest.Method.rawValue`.
        var method: String
        var path: String
        var security: Security?
        /// The lines of each response, by status (`"404"`), without the status line itself.
        var responses: [String: String] = [:]

        var label: String { "\(method) \(path)" }
    }

    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    let operations: [Operation]
    /// The text of each shared response of `components/responses`, by name.
    let sharedResponses: [String: String]
    /// The values of `components/schemas/ErrorCode/enum`, in document order.
    let errorCodes: [String]

    init(text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        operations = try Self.readPaths(lines)
        sharedResponses = Self.readSharedResponses(lines)
        errorCodes = Self.readErrorCodes(lines)
        guard !errorCodes.isEmpty else {
            throw ReadError(description: "no ErrorCode enum found (see the layout above)")
        }
    }

    /// What the document says `operation` answers with `status`: its own lines, or the shared response's when the
    /// operation only refers to one (a `$ref` without its own `description`).
    func responseText(_ operation: Operation, status: String) -> String? {
        guard let own = operation.responses[status] else { return nil }
        if own.contains("description:") { return own }
        guard let reference = own.split(separator: "'").first(where: { $0.hasPrefix("#/components/responses/") }) else {
            return own
        }
        return sharedResponses[String(reference.dropFirst("#/components/responses/".count))] ?? own
    }

    /// The folder that holds `Package.swift`, found from this file's path.
    static func packageRoot(filePath: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        throw ReadError(description: "no Package.swift above \(filePath)")
    }

    static func load() throws -> OpenAPIDocument {
        let url = try packageRoot().appendingPathComponent("docs/openapi.yaml")
        return try OpenAPIDocument(text: String(contentsOf: url, encoding: .utf8))
    }

    // MARK: Reading

    private static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func isBlankOrComment(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// The key of a `key:` line (nil for other lines).
    private static func key(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(":") else { return nil }
        return String(trimmed.dropLast())
    }

    /// The lines of the top-level section `name:`, without that line.
    private static func section(_ name: String, in lines: [String]) -> ArraySlice<String>? {
        guard let start = lines.firstIndex(of: "\(name):") else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { !$0.isEmpty && indentation($0) == 0 && !$0.hasPrefix("#") } ?? lines.endIndex
        return lines[(start + 1)..<end]
    }

    private static func readPaths(_ lines: [String]) throws -> [Operation] {
        guard let paths = section("paths", in: lines) else {
            throw ReadError(description: "no 'paths:' line at column 0")
        }
        var operations: [Operation] = []
        var path: String?
        var current: Operation?
        var inSecurity = false
        var inResponses = false
        var status: String?

        func finish() {
            if let operation = current { operations.append(operation) }
            current = nil
            inSecurity = false
            inResponses = false
            status = nil
        }

        for line in paths where !isBlankOrComment(line) {
            let depth = indentation(line)
            switch depth {
            case 2:
                finish()
                guard let key = key(line), key.hasPrefix("/") else {
                    throw ReadError(description: "a line at 2 spaces under paths: is not a path: \(line)")
                }
                path = key
            case 4:
                finish()
                if let key = key(line), methods.contains(key), let path {
                    current = Operation(method: key.uppercased(), path: path)
                }
            case 6 where current != nil:
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                inSecurity = trimmed == "security:"
                inResponses = trimmed == "responses:"
                status = nil
                if trimmed == "security: []" { current?.security = .open }
            case 8 where inSecurity:
                let scheme = line.trimmingCharacters(in: .whitespaces).dropFirst(2).prefix { $0 != ":" }
                current?.security = Security(rawValue: String(scheme))
            case 8 where inResponses:
                guard let key = key(line), key.count == 5, key.hasPrefix("'"), key.hasSuffix("'") else {
                    throw ReadError(description: "a response at 8 spaces is not a quoted status: \(line)")
                }
                let code = String(key.dropFirst().dropLast())
                status = code
                current?.responses[code] = ""
            default:
                if depth > 8, inResponses, let status { current?.responses[status, default: ""] += line + "\n" }
            }
        }
        finish()
        return operations
    }

    private static func readSharedResponses(_ lines: [String]) -> [String: String] {
        guard let components = section("components", in: lines),
            let start = components.firstIndex(of: "  responses:")
        else { return [:] }
        var responses: [String: String] = [:]
        var name: String?
        for line in components[(start + 1)...] where !isBlankOrComment(line) {
            let depth = indentation(line)
            if depth <= 2 { break }
            if depth == 4 {
                name = key(line)
            } else if let name {
                responses[name, default: ""] += line + "\n"
            }
        }
        return responses
    }

    private static func readErrorCodes(_ lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "    ErrorCode:") else { return [] }
        var codes: [String] = []
        var inEnum = false
        for line in lines[(start + 1)...] where !isBlankOrComment(line) {
            let depth = indentation(line)
            if depth <= 4 { break }
            if depth == 6 {
                inEnum = line == "      enum:"
            } else if inEnum, depth == 8, line.hasPrefix("        - ") {
                codes.append(String(line.dropFirst("        - ".count)))
            }
        }
        return codes
    }
}
