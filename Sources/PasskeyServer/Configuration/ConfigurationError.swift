/// A configuration that cannot be used, naming the field and what is wrong with it.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "configuration: '\(field)' \(message)" }
}
