import Foundation
import Yams

/// What the OpenAPI tests need from `docs/openapi.yaml`, parsed with Yams: each operation with its access and
/// responses, and the `ErrorCode` enum.
struct OpenAPIDocument: Sendable {
    enum Security: String, Sendable {
        /// `security: []`: a public route.
        case open
        case apiKey
        case clientToken
        /// A handoff's poll token: the first device's own client token for its status.
        case pollToken
    }

    struct Operation: Sendable {
        /// Upper case, as `HTTPRequest.Method.rawValue`.
        var method: String
        var path: String
        var security: Security?
        /// The scopes the security requirement lists (`apiKey: [registrations]`): a backend route's API key scope.
        var scopes: [String]
        /// The text of each response (every string in it), by status (`"404"`); for a response that only refers to a
        /// shared one (a `$ref` without its own `description`), the shared response's text.
        var responses: [String: String]
        /// The text of the operation's `parameters` (every string in it, `$ref`s included).
        var parameters: String

        var label: String { "\(method) \(path)" }
    }

    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    static let sharedResponsePrefix = "#/components/responses/"

    let operations: [Operation]
    /// The values of `components/schemas/ErrorCode/enum`, in document order.
    let errorCodes: [String]
    /// The values of `components/schemas/WebhookEventType/enum`, and the `type` of each variant of `WebhookEvent`.
    let webhookEventTypes: [String]
    let webhookEventVariants: [String]
    /// The optional members of request bodies whose schema does not allow `null`, as `Schema.member` (or
    /// `METHOD /path.member` inline), found through properties, `items`, `anyOf`, `oneOf` and `allOf`. A member the
    /// schema refuses outright (`not: {required: [member]}`) is not optional.
    let optionalRequestMembersWithoutNull: [String]

    init(text: String) throws {
        guard let root = try Yams.compose(yaml: text), let paths = root["paths"]?.mapping else {
            throw ReadError(description: "the document has no 'paths' mapping")
        }
        let shared = root["components"]?["responses"]
        var operations: [Operation] = []
        for (pathKey, item) in paths {
            guard let path = pathKey.string, path.hasPrefix("/"), let item = item.mapping else {
                throw ReadError(description: "'paths' holds something that is not a path: \(pathKey)")
            }
            for (methodKey, operation) in item {
                guard let method = methodKey.string, Self.methods.contains(method) else { continue }
                operations.append(
                    Operation(
                        method: method.uppercased(),
                        path: path,
                        security: try Self.security(of: operation),
                        scopes: operation["security"]?.sequence?.first?.mapping?.values.first?.sequence?
                            .compactMap(\.string) ?? [],
                        responses: Self.responses(of: operation, shared: shared),
                        parameters: operation["parameters"].map(Self.text(of:)) ?? ""
                    )
                )
            }
        }
        self.operations = operations
        errorCodes = root["components"]?["schemas"]?["ErrorCode"]?["enum"]?.sequence?.compactMap(\.string) ?? []
        guard !errorCodes.isEmpty else {
            throw ReadError(description: "no components/schemas/ErrorCode/enum")
        }
        let schemas = root["components"]?["schemas"]
        webhookEventTypes = schemas?["WebhookEventType"]?["enum"]?.sequence?.compactMap(\.string) ?? []
        webhookEventVariants =
            schemas?["WebhookEvent"]?["oneOf"]?.sequence?.compactMap { $0["properties"]?["type"]?["const"]?.string }
            ?? []
        var walk = RequestMemberWalk(schemas: schemas)
        for (pathKey, item) in paths {
            for (methodKey, operation) in item.mapping ?? [:] {
                for (_, content) in operation["requestBody"]?["content"]?.mapping ?? [:] {
                    guard let schema = content["schema"] else { continue }
                    walk.visit(schema, at: "\(methodKey.string?.uppercased() ?? "") \(pathKey.string ?? "")")
                }
            }
        }
        optionalRequestMembersWithoutNull = walk.withoutNull.sorted()
    }

    /// Visits request schemas once each, collecting the optional members that do not allow `null`.
    private struct RequestMemberWalk {
        static let schemaPrefix = "#/components/schemas/"
        let schemas: Node?
        var visited: Set<String> = []
        var withoutNull: Set<String> = []

        func resolve(_ node: Node) -> Node {
            var node = node
            while let reference = node["$ref"]?.string, reference.hasPrefix(Self.schemaPrefix),
                let target = schemas?[String(reference.dropFirst(Self.schemaPrefix.count))]
            {
                node = target
            }
            return node
        }

        /// `type: 'null'`, a `type` list or an `enum` with `null`, or an `anyOf`/`oneOf` branch that allows it.
        func allowsNull(_ node: Node) -> Bool {
            let node = resolve(node)
            let types = node["type"].map { $0.sequence ?? [$0] } ?? []
            if types.contains(where: { $0.string == "null" }) { return true }
            if node["enum"]?.sequence?.contains(where: { $0.null != nil }) == true { return true }
            return ["anyOf", "oneOf"].contains { (node[$0]?.sequence ?? []).contains(where: allowsNull) }
        }

        mutating func visit(_ node: Node, at place: String) {
            var place = place
            if let reference = node["$ref"]?.string {
                guard visited.insert(reference).inserted else { return }
                place = String(reference.dropFirst(Self.schemaPrefix.count))
            }
            let schema = resolve(node)
            let required = Set(schema["required"]?.sequence?.compactMap(\.string) ?? [])
            let refused = Set(schema["not"]?["required"]?.sequence?.compactMap(\.string) ?? [])
            for (key, member) in schema["properties"]?.mapping ?? [:] {
                guard let name = key.string else { continue }
                if !required.contains(name), !refused.contains(name), !allowsNull(member) {
                    withoutNull.insert("\(place).\(name)")
                }
                visit(member, at: "\(place).\(name)")
            }
            for combinator in ["anyOf", "oneOf", "allOf"] {
                for branch in schema[combinator]?.sequence ?? [] { visit(branch, at: place) }
            }
            if let items = schema["items"] { visit(items, at: "\(place)[]") }
        }
    }

    /// `security: []` is open; otherwise exactly one requirement, `apiKey`, `clientToken` or `pollToken`. Nil when not
    /// given.
    private static func security(of operation: Node) throws -> Security? {
        guard let requirements = operation["security"]?.sequence else { return nil }
        guard let requirement = requirements.first else { return .open }
        guard requirements.count == 1, let names = requirement.mapping?.keys.compactMap(\.string), names.count == 1,
            let security = Security(rawValue: names[0]), security != .open
        else {
            throw ReadError(description: "an operation's security is not one of [], apiKey, clientToken and pollToken")
        }
        return security
    }

    private static func responses(of operation: Node, shared: Node?) -> [String: String] {
        var texts: [String: String] = [:]
        for (status, response) in operation["responses"]?.mapping ?? [:] {
            guard let status = status.string else { continue }
            var documented = response
            if response["description"] == nil, let reference = response["$ref"]?.string,
                reference.hasPrefix(sharedResponsePrefix),
                let target = shared?[String(reference.dropFirst(sharedResponsePrefix.count))]
            {
                documented = target
            }
            texts[status] = text(of: documented)
        }
        return texts
    }

    /// Every string scalar in `node`, one a line.
    private static func text(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): scalar.string
        case .mapping(let mapping): mapping.map { text(of: $0.key) + "\n" + text(of: $0.value) }.joined(separator: "\n")
        case .sequence(let sequence): sequence.map(text(of:)).joined(separator: "\n")
        case .alias: ""
        }
    }

    /// What the document says `operation` answers with `status`.
    func responseText(_ operation: Operation, status: String) -> String? {
        operation.responses[status]
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
}
