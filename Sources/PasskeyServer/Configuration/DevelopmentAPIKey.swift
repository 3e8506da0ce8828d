import Foundation

/// The backend API key of a local development instance, for a configuration that names none.
///
/// Only an instance on rpId `localhost` gets one: any other relying party without a configured key refuses to
/// start, so a server meant for real users never invents a key and prints it to a log. With a SQLite database the
/// key is kept in a file beside it (`<database>.api-key`, readable by its owner only), so it stays the same across
/// restarts and an `export PASSKEYS_API_KEY=…` keeps working; with any other database it lasts one run.
public struct DevelopmentAPIKey: Sendable, Equatable {
    public let key: String
    /// The file it is kept in, when it is kept.
    public let file: String?

    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    /// The key for `configuration`, which names no API key: read from its file, or made (and saved) on first use.
    public static func load(for configuration: ServerConfiguration) throws(ConfigurationError) -> DevelopmentAPIKey {
        guard configuration.rpId == "localhost" else {
            throw ConfigurationError(
                field: "apiKeys",
                "must name at least one backend API key (or pass --api-key / PASSKEYS_API_KEY): only a localhost development instance makes one up"
            )
        }
        guard case .sqlite(let database) = configuration.database else {
            return DevelopmentAPIKey(key: newKey(), file: nil)
        }
        let file = database.path + ".api-key"
        if let data = FileManager.default.contents(atPath: file) {
            let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard key.hasPrefix("pk_dev_"), key.utf8.count == 31, key.dropFirst(7).allSatisfy(alphabet.contains) else {
                throw ConfigurationError(
                    field: "apiKeys",
                    "has no key, and the development key file \(file) is not one this server wrote: delete it to make a new key"
                )
            }
            return DevelopmentAPIKey(key: key, file: file)
        }
        let key = newKey()
        guard
            FileManager.default.createFile(
                atPath: file,
                contents: Data((key + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw ConfigurationError(
                field: "apiKeys",
                "has no key, and the development key could not be saved to \(file)"
            )
        }
        return DevelopmentAPIKey(key: key, file: file)
    }

    static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return "pk_dev_" + String((0..<24).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
