import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import PasskeyTesting
import Testing

@Suite("SQLite store: audited writes")
struct AuditedWriteTests {
    @Test("a write whose audit event is refused is not written: one transaction holds both")
    func refusedAppendRefusesTheWrite() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                let message = WebhookMessage(
                    id: "msg-1",
                    endpoint: "a",
                    eventType: "passkey.registered",
                    payload: "{}",
                    createdAt: TestTime.fixed
                )
                let event = AuditEvent(time: TestTime.fixed, actor: "system", action: "test.webhooks")
                try await store.appendAuditEvent(event, webhooks: [message])
                let flow = FlowRecord.fixture(kind: .authentication, userID: nil)
                // The outbox refuses a message it holds already: the event is refused, and the flow with it.
                let error = await #expect(throws: StoreError.self) {
                    try await store.createFlow(flow, audit: AuditAppend(event: event, webhooks: [message]))
                }
                #expect(error?.code == .duplicate)
                #expect(try await store.flow(id: flow.id) == nil)
                #expect(try await store.auditEvents(after: 0, limit: 10, userID: nil).count == 1)
            }
        }
    }
}
