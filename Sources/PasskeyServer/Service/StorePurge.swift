public import Foundation
import Logging
import PasskeyStorage
public import ServiceLifecycle

/// The background purge, which keeps the database from growing with what is over: every
/// `retention.purgeIntervalSeconds` (the first one interval after start) it calls
/// ``StorePurging/purge(before:auditBefore:limit:)`` with a batch of `retention.purgeBatch`, again while a kind comes
/// back full, at most ``batchesPerRound`` times, and logs what it deleted.
///
/// Flows, reservations, web sessions and limit windows are deleted ``grace`` after they end, so that servers whose
/// clocks differ by less agree they are over; a user who never completed a sign-up goes with the last of their flows;
/// audit events, identity-verification runs and finished webhook deliveries after `retention.auditDays` (never when
/// it is 0). A store error is
/// logged and the round ends: the next one tries again. ``PasskeyApplication/build(service:services:logger:)`` runs
/// it beside the HTTP server; with several servers on one database each purges, and they skip each other's rows.
public struct StorePurge: Service, CustomStringConvertible {
    /// How long after it ends something is kept: an hour, as limit windows are (``LimitWindow/retention``).
    public static let grace: TimeInterval = LimitWindow.retention
    /// How many store calls one round makes at most, so that a backlog is deleted over several rounds rather than
    /// holding the store for long.
    public static let batchesPerRound = 10

    let service: PasskeyService

    public init(service: PasskeyService) {
        self.service = service
    }

    /// How ServiceLifecycle names it in the log: the service's configuration, API keys included, stays out.
    public var description: String { "StorePurge" }

    public func run() async throws {
        let interval = Duration.seconds(service.configuration.retention.purgeIntervalSeconds)
        await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                _ = await round()
            }
        }
    }

    /// One purge at the service's clock: returns what it deleted, in all its calls.
    func round() async -> PurgeReport {
        let retention = service.configuration.retention
        let now = service.now()
        let auditBefore = retention.auditDays == 0 ? nil : now - Double(retention.auditDays) * 86_400
        var total = PurgeReport()
        for _ in 0..<Self.batchesPerRound {
            let report: PurgeReport
            do {
                report = try await service.context.store.purge(
                    before: now - Self.grace,
                    auditBefore: auditBefore,
                    limit: retention.purgeBatch
                )
            } catch {
                service.logger.error(
                    "The purge of what is over failed; the next one tries again.",
                    metadata: ["error": "\(error)"]
                )
                break
            }
            total = total + report
            guard report.reached(limit: retention.purgeBatch) else { break }
        }
        let webhookDeliveries = await purgeWebhookDeliveries(before: auditBefore)
        if total.total > 0 || webhookDeliveries > 0 {
            var metadata: Logger.Metadata = [:]
            for (kind, count) in total.counts where count > 0 { metadata[kind] = "\(count)" }
            if webhookDeliveries > 0 { metadata["webhookDeliveries"] = "\(webhookDeliveries)" }
            service.logger.info("Purged what is over.", metadata: metadata)
        }
        return total
    }

    /// Deletes the delivered and failed webhook deliveries older than the audit retention, as the audit events they
    /// were written with; returns how many.
    func purgeWebhookDeliveries(before time: Date?) async -> Int {
        guard let time else { return 0 }
        let batch = service.configuration.retention.purgeBatch
        var deleted = 0
        for _ in 0..<Self.batchesPerRound {
            do {
                let count = try await service.context.store.purgeWebhookDeliveries(finishedBefore: time, limit: batch)
                deleted += count
                guard count >= batch else { break }
            } catch {
                service.logger.error(
                    "The purge of webhook deliveries failed; the next one tries again.",
                    metadata: ["error": "\(error)"]
                )
                break
            }
        }
        return deleted
    }
}
