import Logging
import PasskeyStorage

extension PasskeyService {
    /// Makes sure a signing key for token sessions exists, at start (`passkeys serve` calls it before it listens):
    /// the first server of a database makes it, the others find it (the store allows one current key). Returns its
    /// id; nil, after logging why, when the store failed — the key is then made when first needed.
    @discardableResult
    public func prepareSessionSigningKey() async -> String? {
        do {
            let key = try await sessions.currentKey(at: now())
            logger.info("token sessions are signed with this key", metadata: ["kid": "\(key.id)"])
            return key.id
        } catch {
            logger.warning(
                "the token sessions' signing key could not be read or made at start; it will be on first use",
                metadata: ["error": "\(error)"]
            )
            return nil
        }
    }
}
