import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import ProcessTestSupport
import Testing

/// The console's webhook pages: the endpoints, each one's deliveries with their status, attempts, last answer and next
/// try, and a finished delivery sent again (CSRF-protected, audited).
@Suite("Webhooks: the console")
struct ConsoleWebhookTests {
    @Test("deliveries are listed per endpoint, and a delivered one is sent again", arguments: RealStore.available)
    func deliveriesAndResend(_ store: RealStore) async throws {
        let receiver = WebhookReceiver(.accept)
        try await receiver.listen { url in
            try await store.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                _ = try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "ada"))
                #expect(try await api.backend(.delete, "/v1/users/ada").status == .noContent)
                #expect(await eventually { receiver.accepted.count == 1 })
                let delivery = try #require(
                    try await server.store.webhookDeliveries(endpoint: "crm", before: nil, limit: 1).first
                )
                #expect(
                    await eventually {
                        (try? await server.store.webhookDeliveries(endpoint: "crm", before: nil, limit: 1).first?.status)
                            == .delivered
                    }
                )

                let web = try await ConsoleTests.signedInConsole(api)
                let endpoints = try await web.get("/console/webhooks")
                #expect(endpoints.status == .ok)
                #expect(endpoints.text.contains(#"<a href="/console/webhooks/crm">crm</a>"#))
                #expect(!endpoints.text.contains(String(WebhookReceiver.secret.dropFirst(6))), "no secret on the page")
                let page = try await web.get("/console/webhooks/crm")
                #expect(page.status == .ok)
                #expect(page.text.contains(#"data-status="delivered""#))
                #expect(page.text.contains("<td>user.deleted</td>"))
                #expect(page.text.contains(delivery.message.id))
                #expect(page.text.contains("<td>204</td>"))

                let path = "/console/webhooks/crm/deliveries/\(delivery.id)/resend"
                #expect(try await web.submit(path, csrf: false).status == .forbidden, "a resend needs the CSRF token")
                let resent = try await web.submit(path)
                #expect(resent.status == .seeOther)
                #expect(resent.headers[.location] == "/console/webhooks/crm?done=resent")
                #expect(await eventually { receiver.accepted.count == 2 })
                #expect(Set(receiver.accepted.map(\.id)) == [delivery.message.id], "the same message, again")
                #expect(try await web.get("/console/audit").text.contains("webhook.resent"))
                let missing = try await web.submit("/console/webhooks/crm/deliveries/999999/resend")
                #expect(missing.status == .notFound, "\(missing)")
                #expect(try await web.get("/console/webhooks/nobody").status == .notFound)
            }
        }
    }

    @Test("the webhook pages need a signed-in operator")
    func signInRequired() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            let list = try await web.get("/console/webhooks")
            let deliveries = try await web.get("/console/webhooks/crm")
            #expect(list.headers[.location] == "/console")
            #expect(deliveries.headers[.location] == "/console")
        }
    }
}
