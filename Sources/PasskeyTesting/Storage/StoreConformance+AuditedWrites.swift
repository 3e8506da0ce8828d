import Foundation
import PasskeyStorage

extension StoreConformance {
    /// Writes that append their own audit event (``PasskeyStore``, "Audited writes").
    static let auditedWrites: [StoreConformanceCheck] = [
        StoreConformanceCheck("an audited write appends its event when it takes effect, and only then") { store in
            let (credential, signIn) = try await Fixture.signIn(in: store, signCount: 4)
            let userID = credential.userID
            let flow = Fixture.flow(userID: userID)
            try await store.createFlow(flow, audit: AuditFixture.append("flow.created", userID: userID, flow))
            try await requireStoreError(.duplicate) {
                try await store.createFlow(flow, audit: AuditFixture.append("flow.duplicated", userID: userID, flow))
            }
            let passkey = Fixture.credential(userID: userID, name: "Laptop")
            for action in ["credential.inserted", "credential.duplicated"] {
                try? await store.insertCredential(
                    passkey,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now,
                    audit: AuditFixture.append(action, userID: userID, flow)
                )
            }
            try require(try await store.credential(id: passkey.id) != nil, "the first insert is written")
            let stale = CredentialUse(
                credentialID: credential.id,
                expectedSignCount: 3,
                signCount: 9,
                backupState: false
            )
            let use = CredentialUse(credentialID: credential.id, expectedSignCount: 4, signCount: 9, backupState: false)
            for (use, action) in [(stale, "signIn.stale"), (use, "signIn.recorded"), (use, "signIn.replayed")] {
                _ = try await store.recordAuthentication(
                    use,
                    flowID: signIn.id,
                    expectedStatuses: [.verifying],
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now + 5,
                    audit: AuditFixture.append(action, userID: userID, signIn)
                )
            }
            let events = try await store.auditEvents(before: nil, limit: 10, userID: userID).reversed()
            try require(
                events.map(\.action) == ["flow.created", "credential.inserted", "signIn.recorded"],
                "only the writes that took effect are audited, once each: \(events.map(\.action))"
            )
            try require(
                events.map(\.subject) == [flow.id, flow.id, signIn.id] && events.allSatisfy { $0.hash != nil },
                "the events are stored as given and linked into the chain: \(Array(events))"
            )
        }
    ]

    /// Audited writes and the webhook outbox, whose claims take every due delivery of the store.
    static let auditedWriteMessages: [StoreConformanceCheck] = [
        StoreConformanceCheck("an audited write's webhook messages are written with its event") { store in
            let flow = Fixture.flow(userID: nil, kind: .authentication)
            let message = WebhookFixture.message(endpoint: "a")
            var append = AuditFixture.append("flow.created", userID: nil, flow, webhooks: [message])
            try await store.createFlow(flow, audit: append)
            append = AuditFixture.append(
                "flow.duplicated",
                userID: nil,
                flow,
                webhooks: [WebhookFixture.message(endpoint: "a")]
            )
            try await requireStoreError(.duplicate) { try await store.createFlow(flow, audit: append) }
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now,
                leaseUntil: Fixture.now + 1,
                limit: 10
            )
            try require(claimed.map(\.message) == [message], "the created flow's message only: \(claimed)")
        }
    ]
}

private enum AuditFixture {
    static func append(
        _ action: String,
        userID: String?,
        _ flow: FlowRecord,
        webhooks: [WebhookMessage] = []
    ) -> AuditAppend {
        AuditAppend(
            event: AuditEvent(time: Fixture.now, actor: "system", action: action, userID: userID, subject: flow.id),
            webhooks: webhooks
        )
    }
}
