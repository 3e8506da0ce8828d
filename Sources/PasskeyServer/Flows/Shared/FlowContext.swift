import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// What every flow shares: the configuration, the store, the clock, the log, the metrics and the relying party's
/// verification policy. Built once by ``PasskeyService``; each flow type holds it (``ServiceFlow``).
struct FlowContext: Sendable {
    let configuration: ServerConfiguration
    let store: any PasskeyStore
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: ServerMetrics
    let origins: OriginPolicy
    let attestationPolicy: AttestationPolicy
    /// Where identity-verification runs are created (`identityVerification.provider`).
    let identityVerifier: any IdentityVerificationProvider
    /// Which webhook endpoints receive an audited change (`webhooks.endpoints`).
    let webhooks: WebhookOutbox
}

/// A flow of DESIGN §3 as a type: it holds the shared ``FlowContext`` and the other flows it builds on, and gets the
/// steps every flow takes (audit, storage errors, challenges, limits) from the extensions of this protocol. A flow
/// reaches another flow only through a property it holds, so the dependencies between flows are its stored properties.
protocol ServiceFlow: Sendable {
    var context: FlowContext { get }
}

extension ServiceFlow {
    var configuration: ServerConfiguration { context.configuration }
    var store: any PasskeyStore { context.store }
    var logger: Logger { context.logger }
    var metrics: ServerMetrics { context.metrics }
    var origins: OriginPolicy { context.origins }
    var attestationPolicy: AttestationPolicy { context.attestationPolicy }
    func now() -> Date { context.now() }

    /// The FIDO metadata the service was started with, if any.
    var metadataBLOB: MetadataBLOB? { context.attestationPolicy.metadata?.blob }

    /// Whether identity verification is the simulated provider's, which verifies nobody.
    var isSimulatedIdentityVerification: Bool { configuration.identityVerification.provider == .simulated }

    func expiry(_ seconds: Int) -> Date { now().addingTimeInterval(TimeInterval(seconds)) }

    /// Appends an event to the audit log, and in the same transaction its webhook events to the outbox of each
    /// endpoint subscribed to them (``WebhookOutbox``); a store failure is logged, never fails the request that is
    /// audited. The change itself was committed before, in a transaction of its own: a crash between the two loses
    /// the audit event and its webhooks together. A change the store can audit itself takes the event instead
    /// (``auditedStorage(_:_:)``).
    func audit(
        _ action: AuditAction,
        by caller: Caller,
        userID: String?,
        subject: String?,
        details: [String: String] = [:]
    ) async {
        let append = auditAppend(action, by: caller, userID: userID, subject: subject, details: details)
        do {
            try await store.appendAuditEvent(append.event, webhooks: append.webhooks)
            ringForWebhooks(append)
        } catch {
            logger.error("audit event could not be stored", metadata: ["action": "\(action)", "error": "\(error)"])
        }
    }

    /// An audit event of this call, with the webhook events it sends to each endpoint subscribed to them.
    func auditAppend(
        _ action: AuditAction,
        by caller: Caller,
        userID: String?,
        subject: String?,
        details: [String: String] = [:]
    ) -> AuditAppend {
        let event = AuditEvent(
            time: now(),
            actor: caller.actor,
            action: action.rawValue,
            userID: userID,
            subject: subject,
            requestID: caller.requestID,
            details: details
        )
        return AuditAppend(event: event, webhooks: context.webhooks.messages(for: event))
    }

    /// Runs an audited write of the store — one that appends `append` when it takes effect, on SQLite in the change's
    /// own transaction (``PasskeyStore``) — turning storage failures into API errors: a failure to store the event
    /// fails the request, as a failure to store the change does.
    func auditedStorage<T>(_ append: AuditAppend, _ write: () async throws -> T) async throws(APIError) -> T {
        let result = try await storage(write)
        ringForWebhooks(append)
        return result
    }

    /// Tells the webhook dispatcher that an append wrote messages to the outbox.
    func ringForWebhooks(_ append: AuditAppend) {
        if !append.webhooks.isEmpty { context.webhooks.doorbell.ring() }
    }

    /// Runs a store operation, turning storage failures into API errors.
    func storage<T>(_ body: () async throws -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            logger.error("storage failure", metadata: ["error": "\(error)"])
            throw (error as? StoreError)?.code == .unavailable ? .storageUnavailable : .unexpected
        }
    }
}
