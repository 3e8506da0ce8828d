import Foundation

/// The backend API keys, held only as SHA-256 hashes.
struct APIKeys: Sendable {
    private let keys: [(name: String, hash: [UInt8])]

    init(_ configured: [ServerConfiguration.APIKey]) {
        keys = configured.compactMap { key in
            if let secret = key.key { return (key.name, Secrets.hash(secret)) }
            guard let hex = key.sha256 else { return nil }
            var bytes = [UInt8]()
            var index = hex.startIndex
            while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return (key.name, bytes)
        }
    }

    /// The name of the key `presented` is, if any. Every key is compared, in constant time.
    func name(for presented: String) -> String? {
        let hash = Secrets.hash(presented)
        var found: String?
        for key in keys where Secrets.constantTimeEqual(key.hash, hash) { found = key.name }
        return found
    }
}
