import Foundation
import Logging
import PasskeyStorage
public import ServiceLifecycle

/// The background task that signs the audit log's hash chain: at start, every `audit.checkpointIntervalSeconds` and
/// once more when the server stops gracefully, it reads the chain's head (``AuditStore/auditChainHead()``), signs it
/// with the ``AuditCheckpointKey`` and keeps the checkpoint in the store, unless one of that event exists already
/// (another server signed it, or nothing was appended since). `passkeys audit verify` checks the chain against them.
/// A store error is logged and the next round tries again. ``PasskeyApplication/build(service:services:logger:)``
/// runs it beside the HTTP server.
public struct AuditCheckpoints: Service, CustomStringConvertible {
    let service: PasskeyService

    public init(service: PasskeyService) {
        self.service = service
    }

    public var description: String { "AuditCheckpoints" }

    public func run() async throws {
        let interval = Duration.seconds(service.configuration.audit.checkpointIntervalSeconds)
        let key = service.auditCheckpointKey
        service.logger.info(
            "Audit checkpoints are signed with this public key.",
            metadata: [
                "publicKey": "\(Data(key.publicKey).base64EncodedString())",
                "keyFile": "\(key.file ?? "none: a key for this run")",
            ]
        )
        await cancelWhenGracefulShutdown {
            while true {
                _ = await round()
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
        // A graceful stop signs what was appended since the last round, so a clean restart leaves nothing unsigned.
        guard !Task.isCancelled else { return }
        _ = await round()
    }

    /// Signs the chain's head now: the checkpoint kept, or nil when there was nothing new to sign (or the store
    /// failed, which is logged).
    @discardableResult
    func round() async -> AuditCheckpoint? {
        let store = service.context.store
        do {
            guard let head = try await store.auditChainHead() else { return nil }
            let checkpoint = try AuditChain.checkpoint(
                of: head,
                at: service.now(),
                signedWith: service.auditCheckpointKey.privateKey
            )
            guard try await store.appendAuditCheckpoint(checkpoint) else { return nil }
            service.logger.debug("Signed an audit checkpoint.", metadata: ["sequence": "\(checkpoint.sequence)"])
            return checkpoint
        } catch {
            service.logger.error(
                "Signing an audit checkpoint failed; the next round tries again.",
                metadata: ["error": "\(error)"]
            )
            return nil
        }
    }
}
