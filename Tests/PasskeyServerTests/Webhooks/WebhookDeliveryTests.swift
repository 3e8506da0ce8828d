import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import ProcessTestSupport
import Testing
import WebAuthn

@testable import PasskeyServer

/// Events reach a local receiver over real HTTP, signed, from a live server on a real SQLite file (and PostgreSQL
/// when it is configured): a passkey's life, retries until the receiver recovers, giving up after a day, redirects
/// refused, answers bounded, and ceremonies that never wait for any of it.
@Suite("Webhooks: delivery")
struct WebhookDeliveryTests {
    /// The store's deliveries to the test endpoint, newest first.
    static func deliveries(_ server: TestServer) async throws -> [WebhookDelivery] {
        try await server.store.webhookDeliveries(endpoint: "crm", before: nil, limit: 100)
    }

    @Test(
        "a registration, a rename, a sign-in and a revocation reach the endpoint, signed",
        arguments: StoreKind.available
    )
    func passkeyLife(_ kind: StoreKind) async throws {
        let receiver = WebhookReceiver(.accept)
        try await receiver.listen { url in
            try await kind.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                var phone = TestAuthenticator()
                let credential = try await api.enroll("ada", authenticator: &phone)
                let id = credential.credentialId
                _ = try await api.backend(.patch, Path.credential(id), body: Rename(name: "Work phone")).expect(
                    .ok,
                    CredentialView.self
                )
                let session = try await api.startSignIn(userID: "ada")
                let options = try await api.authenticationOptions(session)
                let completed = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                    .expect(.ok, SignInCompletion.self)
                #expect(try await api.backend(.delete, Path.credential(id)).status == .noContent)

                let types = ["passkey.registered", "passkey.renamed", "sign_in.completed", "passkey.revoked"]
                #expect(await eventually { receiver.accepted.count >= 4 }, "\(receiver.requests.map(\.type))")
                let received = receiver.accepted
                #expect(Set(received.compactMap(\.type)) == Set(types))
                #expect(Set(received.map(\.id)).count == 4, "one message id an event")
                for request in received {
                    #expect(request.isSigned(with: WebhookReceiver.secret), "\(request.headers)")
                    #expect(request.headers["content-type"] == "application/json")
                    #expect(request.id.hasPrefix("msg_"))
                    #expect(request.data?["userId"] as? String == "ada")
                    #expect(request.data?["credentialId"] as? String == id)
                    #expect(request.json?["timestamp"] is String)
                    // Never a secret: no token or challenge of the ceremonies appears in an event.
                    for secret in [
                        session.clientToken, completed.resultToken, Base64URL.encode(options.challenge.bytes),
                    ] {
                        #expect(!request.body.contains(secret))
                    }
                }
                let byType = Dictionary(received.map { ($0.type ?? "", $0) }) { first, _ in first }
                #expect(byType["passkey.renamed"]?.data?["name"] as? String == "Work phone")
                #expect(byType["sign_in.completed"]?.data?["userVerified"] as? Bool == true)
                #expect(
                    byType["sign_in.completed"]?.data?["biometricPasskeySessionId"] as? String
                        == session.biometricPasskeySessionId
                )
                #expect(
                    await eventually {
                        (try? await Self.deliveries(server))?.allSatisfy { $0.status == .delivered } == true
                    }
                )
                let stored = try await Self.deliveries(server)
                #expect(stored.count == 4)
                #expect(stored.allSatisfy { $0.attempts == 1 && $0.lastAnswer == 204 })
            }
        }
    }

    @Test(
        "an endpoint that fails for a while then recovers gets every event, once each",
        arguments: StoreKind.available
    )
    func recovery(_ kind: StoreKind) async throws {
        let receiver = WebhookReceiver(.failFirst(5, status: 500))
        try await receiver.listen { url in
            try await kind.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                var phone = TestAuthenticator()
                let credential = try await api.enroll("grace", authenticator: &phone)
                _ = try await api.backend(
                    .patch,
                    Path.credential(credential.credentialId),
                    body: Rename(name: "Tablet")
                )
                _ = try await api.signIn(userID: "grace", authenticator: &phone)
                // Retries wait on the server's clock: move it on until the endpoint has had everything — a second at
                // a time, so that an attempt under way keeps its claim (its timeout and a minute) however slowly it
                // runs on a busy machine, rather than being taken over by the next look.
                let delivered = await eventually(within: 60) {
                    server.clock.advance(by: 1)
                    return Set(receiver.accepted.map(\.id)).count >= 3
                }
                #expect(delivered, "\(receiver.requests.map { "\($0.type ?? "?") \($0.status)" })")
                #expect(receiver.requests.filter { !$0.accepted }.count == 5)
                #expect(receiver.accepted.count == 3, "each event accepted once")
                #expect(receiver.requests.allSatisfy { $0.isSigned(with: WebhookReceiver.secret) })
                #expect(
                    await eventually {
                        (try? await Self.deliveries(server))?.allSatisfy { $0.status == .delivered } == true
                    }
                )
                #expect(try await Self.deliveries(server).map(\.attempts).reduce(0, +) == 8)
            }
        }
    }

    @Test("an endpoint that never recovers: the delivery fails after a day")
    func givingUp() async throws {
        let receiver = WebhookReceiver(.fail(status: 503))
        try await receiver.listen { url in
            try await StoreKind.sqlite.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                _ = try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "linus"))
                #expect(try await api.backend(.delete, "/v1/users/linus").status == .noContent)
                // An hour of the server's clock a second: the endpoint rests (at most five minutes) between the
                // attempts, and the worker looks again within a second of real time.
                let failed = await eventually(within: 120, every: .seconds(1)) {
                    server.clock.advance(by: 3600)
                    return (try? await Self.deliveries(server).first?.status) == .failed
                }
                #expect(failed)
                let delivery = try #require(try await Self.deliveries(server).first)
                #expect(delivery.message.eventType == "user.deleted")
                #expect(delivery.lastAnswer == 503)
                #expect(delivery.nextAttemptAt == nil)
                #expect(delivery.attempts > 10)
                let last = try #require(delivery.lastAttemptAt)
                #expect(last.timeIntervalSince(delivery.message.createdAt) >= 86_400 - 3600)
            }
        }
    }

    @Test("a redirect is not followed: the signed body goes to the configured URL only")
    func redirects() async throws {
        let receiver = WebhookReceiver(.redirect)
        try await receiver.listen { url in
            try await StoreKind.sqlite.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                _ = try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "ada"))
                #expect(try await api.backend(.delete, "/v1/users/ada").status == .noContent)
                #expect(
                    await eventually {
                        (try? await Self.deliveries(server).first?.lastError) == "redirect"
                    }
                )
                #expect(receiver.elsewhere == 0)
                #expect(try await Self.deliveries(server).first?.status == .pending)
            }
        }
    }

    @Test("an endless answer is read only up to its bound; its status counts")
    func boundedAnswer() async throws {
        let receiver = WebhookReceiver(.endless)
        try await receiver.listen { url in
            try await StoreKind.sqlite.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                _ = try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "ada"))
                #expect(try await api.backend(.delete, "/v1/users/ada").status == .noContent)
                #expect(await eventually { (try? await Self.deliveries(server).first?.status) == .delivered })
                #expect(try await Self.deliveries(server).first?.lastAnswer == 200)
                #expect(await eventually { receiver.bodyEnded }, "the server stopped reading")
                #expect(receiver.bytesSent < 16 << 20, "sent \(receiver.bytesSent) bytes")
            }
        }
    }

    @Test("an endpoint that is down rests: 20 events cost at most one claim's attempts, and all arrive once it is back")
    func downEndpointRests() async throws {
        let receiver = WebhookReceiver(.fail(status: 503))
        try await receiver.listen { url in
            try await StoreKind.sqlite.withLiveServer(configure: { $0.postWebhooks(to: url) }) { server, api in
                var phone = TestAuthenticator()
                let credential = try await api.enroll("ada", authenticator: &phone)
                for number in 1...20 {
                    _ = try await api.backend(
                        .patch,
                        Path.credential(credential.credentialId),
                        body: Rename(name: "Key \(number)")
                    )
                }
                // The server's clock stands still, so the endpoint's pause does not end: the renames are written to
                // the outbox and wait there. Only attempts claimed before the endpoint rested were made.
                try await Task.sleep(for: .seconds(2))
                // Without the rest each of the 21 events would have had its attempt; with it, those of the claims
                // made before the third failure: at most a claim's worth after two.
                let limit = server.configuration.webhooks.maxConcurrentDeliveries + 2
                #expect(receiver.requests.count <= limit, "\(receiver.requests.count) attempts")
                #expect(try await Self.deliveries(server).count == 21)

                receiver.behave(.accept)
                let delivered = await eventually(within: 60) {
                    server.clock.advance(by: 1)
                    return (try? await Self.deliveries(server))?.allSatisfy { $0.status == .delivered } == true
                }
                #expect(delivered)
                #expect(Set(receiver.accepted.map(\.id)).count == 21, "each event arrives")
                #expect(receiver.accepted.count == 21, "once")
            }
        }
    }

    @Test("a slow endpoint never slows a ceremony")
    func slowEndpoint() async throws {
        let receiver = WebhookReceiver(.held)
        try await receiver.listen { url in
            // The longest timeout the configuration allows: an attempt is held until the release, not timed out and
            // retried, unless the machine is very slow.
            try await StoreKind.sqlite.withLiveServer(configure: { $0.postWebhooks(to: url, timeoutSeconds: 60) }) {
                server,
                api in
                // Every attempt is held by the endpoint: a ceremony that waited for one would never end.
                for user in ["ada", "grace", "linus"] {
                    var phone = TestAuthenticator()
                    _ = try await api.enroll(user, authenticator: &phone)
                    _ = try await api.signIn(userID: user, authenticator: &phone)
                }
                #expect(await eventually { receiver.requests.count >= 6 }, "all six attempts are under way at once")
                #expect(try await Self.deliveries(server).allSatisfy { $0.status == .pending })
                receiver.release()
                // On a very slow machine an attempt may have timed out before the release: it is then retried after
                // 1 s (doubling) by the server's clock, which only the test moves — so it moves it for such a retry.
                let delivered = await eventually(within: 120) {
                    let deliveries = (try? await Self.deliveries(server)) ?? []
                    if deliveries.contains(where: { $0.status == .pending && $0.lastError != nil }) {
                        server.clock.advance(by: 1)
                    }
                    return !deliveries.isEmpty && deliveries.allSatisfy { $0.status == .delivered }
                }
                let states = try await Self.deliveries(server).map {
                    "\($0.status) after \($0.attempts) (last \($0.lastAnswer.map(String.init) ?? $0.lastError ?? "-"), next \($0.nextAttemptAt.map { "\($0)" } ?? "-"))"
                }
                #expect(delivered, "\(states)")
            }
        }
    }

    @Test("an endpoint receives only the event types it subscribed to")
    func subscriptions() async throws {
        let receiver = WebhookReceiver(.accept)
        try await receiver.listen { url in
            try await StoreKind.sqlite.withLiveServer(configure: {
                $0.postWebhooks(to: url, events: ["user.deleted"])
            }) { server, api in
                var phone = TestAuthenticator()
                _ = try await api.enroll("ada", authenticator: &phone)
                #expect(try await api.backend(.delete, "/v1/users/ada").status == .noContent)
                #expect(await eventually { receiver.accepted.count >= 1 })
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.requests.map(\.type) == ["user.deleted"])
                #expect(receiver.requests.first?.data as? [String: String] == ["userId": "ada"])
            }
        }
    }
}
