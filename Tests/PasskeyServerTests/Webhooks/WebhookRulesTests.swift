import Foundation
import PasskeyStorage
import Testing

@testable import PasskeyServer

/// The rules of webhooks that need no server: the signature, the retry schedule, which audited action is which event
/// (and what its data holds), and the configuration's checks.
@Suite("Webhooks: rules")
struct WebhookRulesTests {
    @Test("the signature is the Standard Webhooks signature (the specification's test vector)")
    func signature() throws {
        let signer = try #require(WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(
            signer.signature(
                id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                timestamp: 1_614_265_330,
                body: #"{"test": 2432232314}"#
            )
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        )
    }

    @Test("while a secret is rotated, each message carries the signature of the new secret, then of the previous one")
    func rotation() throws {
        let current = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let previous = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let endpoint = ServerConfiguration.Webhooks.Endpoint(
            name: "crm",
            url: "https://crm.example/",
            secret: current,
            previousSecret: previous
        )
        let signers = try [current, previous].map { try #require(WebhookSigner(secret: $0)) }
        let both = try #require(WebhookSigner(endpoint))
        let (id, timestamp, body) = ("msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, #"{"test": 2432232314}"#)
        let expected = signers.map { $0.signature(id: id, timestamp: timestamp, body: body) }
        #expect(expected[1] == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(both.signature(id: id, timestamp: timestamp, body: body) == expected.joined(separator: " "))
        var settled = endpoint
        settled.previousSecret = nil
        #expect(try #require(WebhookSigner(settled)).signature(id: id, timestamp: timestamp, body: body) == expected[0])
    }

    @Test(
        "a secret is whsec_ and the base64 of 24 to 64 bytes",
        arguments: [
            "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!",
            "whsec_" + Data(count: 23).base64EncodedString(), "whsec_" + Data(count: 65).base64EncodedString(),
        ]
    )
    func refusedSecrets(_ secret: String) {
        #expect(WebhookSigner(secret: secret) == nil)
    }

    @Test("retries wait twice as long each time, at most an hour, and end a day after the event")
    func retrySchedule() {
        let created = Date(timeIntervalSince1970: 1_000_000)
        func wait(after attempt: Int, at now: Date = created) -> TimeInterval? {
            WebhookRetry.next(after: attempt, firstRetrySeconds: 5, createdAt: created, now: now, jitter: 0.5)
                .map { $0.timeIntervalSince(now) }
        }
        #expect(wait(after: 1) == 5)
        #expect(wait(after: 2) == 10)
        #expect(wait(after: 5) == 80)
        #expect(wait(after: 12) == 3600)
        #expect(wait(after: 1000) == 3600)
        let late = created + 86_400 - 60
        #expect(wait(after: 30, at: late) == 60, "the last attempt is at the end of the day")
        #expect(wait(after: 31, at: created + 86_400) == nil)
        let jittered = (0..<100).compactMap { _ in
            WebhookRetry.next(after: 3, firstRetrySeconds: 5, createdAt: created, now: created)
        }
        #expect(jittered.allSatisfy { (16...24).contains($0.timeIntervalSince(created)) })
    }

    static func event(
        _ action: AuditAction,
        subject: String? = "subject",
        _ details: [String: String] = [:]
    )
        -> AuditEvent
    {
        AuditEvent(
            time: Date(timeIntervalSince1970: 1_700_000_000),
            actor: "api-key:test",
            action: action.rawValue,
            userID: "ada",
            subject: subject,
            requestID: "request",
            details: details
        )
    }

    @Test("an endpoint rests after three failures in a row, then after each one, twice as long each time")
    func endpointRest() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var rest = EndpointRest(firstPause: 5)
        rest.record(endpoint: "crm", delivered: false, at: start)
        rest.record(endpoint: "crm", delivered: false, at: start)
        rest.record(endpoint: "siem", delivered: false, at: start)
        #expect(rest.resting(at: start).isEmpty)
        rest.record(endpoint: "crm", delivered: false, at: start)
        #expect(rest.resting(at: start) == ["crm"])
        // An attempt under way when the pause began ends during it: it changes nothing.
        rest.record(endpoint: "crm", delivered: false, at: start + 4)
        #expect(rest.resting(at: start + 4.9) == ["crm"])
        #expect(rest.resting(at: start + 5).isEmpty)
        // After a pause, one failure is enough; the pause doubles, up to five minutes.
        var time = start + 5
        for pause in [10.0, 20, 40, 80, 160, 300, 300] {
            rest.record(endpoint: "crm", delivered: false, at: time)
            #expect(rest.resting(at: time + pause - 0.1) == ["crm"])
            #expect(rest.resting(at: time + pause).isEmpty)
            time += pause
        }
        // One delivered attempt ends it: three failures again before the next pause.
        rest.record(endpoint: "crm", delivered: true, at: time)
        rest.record(endpoint: "crm", delivered: false, at: time)
        #expect(rest.resting(at: time).isEmpty)
    }

    @Test("each audited change that is an event maps to its types, with data picked field by field")
    func mapping() {
        func types(_ event: AuditEvent) -> [String] { WebhookEvent.events(for: event).map(\.type.rawValue) }
        #expect(
            types(Self.event(.registrationCompleted, ["status": "active", "name": "Phone"])) == ["passkey.registered"]
        )
        #expect(types(Self.event(.registrationCompleted, ["status": "reserved"])) == [])
        #expect(types(Self.event(.registrationFinalized)) == ["passkey.registered"])
        #expect(types(Self.event(.credentialRevoked)) == ["passkey.revoked"])
        #expect(types(Self.event(.credentialRenamed, ["name": "Laptop"])) == ["passkey.renamed"])
        #expect(types(Self.event(.authenticationCompleted, ["mode": "standard"])) == ["sign_in.completed"])
        #expect(
            types(
                Self.event(
                    .authenticationCompleted,
                    ["mode": "stepUp", "signCountRegressed": "true", "handoff": "cps_1"]
                )
            )
                == ["step_up.completed", "sign_in.clone_suspected", "handoff.approved"]
        )
        #expect(types(Self.event(.credentialCloneSuspected)) == ["sign_in.clone_suspected"])
        #expect(types(Self.event(.identityVerificationDecided)) == ["identity_verification.decided"])
        #expect(types(Self.event(.recoveryCreated)) == ["recovery.started"])
        #expect(types(Self.event(.recoveryFinalized)) == ["recovery.finalized", "passkey.registered"])
        #expect(types(Self.event(.userDeleted, subject: nil)) == ["user.deleted"])
        #expect(types(Self.event(.handoffRejected, ["reason": "person"])) == ["handoff.rejected"])
        #expect(types(Self.event(.sessionReuseDetected)) == ["session.reuse_detected"])
        for action in [
            AuditAction.registrationCreated, .authenticationFailed, .authenticationRedeemed, .webhookResent,
            .sessionIssued, .sessionRefreshed, .sessionRevoked,
        ] {
            #expect(types(Self.event(action)) == [], "\(action)")
        }
        let everyType = Set(
            AuditAction.all.flatMap { action in
                WebhookEvent.events(
                    for: Self.event(
                        action,
                        ["status": "active", "mode": "stepUp", "signCountRegressed": "true", "handoff": "h"]
                    )
                ) + WebhookEvent.events(for: Self.event(action, ["mode": "standard"]))
            }.map(\.type)
        )
        #expect(everyType == Set(WebhookEventType.all), "every event type comes from some audited action")
    }

    @Test("a step-up's event carries its transaction digest and assurance; the data never the audit's other details")
    func stepUpData() throws {
        let event = Self.event(
            .authenticationCompleted,
            subject: "credential-1",
            [
                "mode": "stepUp", "flow": "bps_1", "userVerified": "true", "assurance": "high",
                "transactionDigest": "digest", "action": "payment", "signCountRegressed": "false", "handoff": "none",
                "unrelated": "kept out",
            ]
        )
        let stepUp = try #require(WebhookEvent.events(for: event).first)
        #expect(stepUp.type == .stepUpCompleted)
        #expect(
            stepUp.data == [
                "userId": .string("ada"), "credentialId": .string("credential-1"),
                "biometricPasskeySessionId": .string("bps_1"), "userVerified": .bool(true),
                "assurance": .string("high"),
                "transactionDigest": .string("digest"), "action": .string("payment"),
            ]
        )
        let body = try #require(WebhookOutbox.body(of: stepUp, at: event.time))
        #expect(body.hasPrefix(#"{"data":{"#))
        #expect(body.hasSuffix(#""timestamp":"2023-11-14T22:13:20Z","type":"step_up.completed"}"#))
    }

    @Test("the outbox writes one message an event for each endpoint subscribed, with one id across endpoints")
    func routing() {
        let outbox = WebhookOutbox(endpoints: [
            .init(name: "all", url: "https://a.example/hooks", secret: WebhookReceiver.secret, events: ["*"]),
            .init(
                name: "deletions",
                url: "https://b.example/hooks",
                secret: WebhookReceiver.secret,
                events: ["user.deleted"]
            ),
        ])
        let deleted = outbox.messages(for: Self.event(.userDeleted, subject: nil))
        #expect(deleted.map(\.endpoint) == ["all", "deletions"])
        #expect(Set(deleted.map(\.id)).count == 1)
        #expect(outbox.messages(for: Self.event(.credentialRevoked)).map(\.endpoint) == ["all"])
        #expect(outbox.messages(for: Self.event(.registrationCreated)).isEmpty)
    }

    static func configuration(_ endpoint: String) throws(ConfigurationError) -> ServerConfiguration {
        try ServerConfiguration(jsonData: Data(#"{"webhooks": {"endpoints": [\#(endpoint)]}}"#.utf8))
    }

    @Test(
        "an endpoint is checked at start, with the field named",
        arguments: [
            (#"{"name": "crm", "url": "http://crm.example/hooks", "secret": "S", "events": ["*"]}"#, "url"),
            (#"{"name": "crm", "url": "ftp://127.0.0.1/hooks", "secret": "S", "events": ["*"]}"#, "url"),
            (#"{"name": "crm", "url": "https://u:p@crm.example/", "secret": "S", "events": ["*"]}"#, "url"),
            (#"{"name": "Crm", "url": "https://crm.example/", "secret": "S", "events": ["*"]}"#, "name"),
            (#"{"name": "crm", "url": "https://crm.example/", "secret": "whsec_abc", "events": ["*"]}"#, "secret"),
            (#"{"name": "crm", "url": "https://crm.example/", "secret": "S", "events": []}"#, "events"),
            (
                #"{"name": "crm", "url": "https://crm.example/", "secret": "S", "events": ["passkey.created"]}"#,
                "events[0]"
            ),
            (
                #"{"name": "crm", "url": "https://crm.example/", "secret": "S", "events": ["*"], "retries": 3}"#,
                "retries"
            ),
            (
                #"{"name": "crm", "url": "https://crm.example/", "secret": "S", "previousSecret": "whsec_abc", "events": ["*"]}"#,
                "previousSecret"
            ),
            (
                #"{"name": "crm", "url": "https://crm.example/", "secret": "S", "previousSecret": "S", "events": ["*"]}"#,
                "previousSecret"
            ),
        ]
    )
    func refusedEndpoints(_ endpoint: String, field: String) throws {
        let json = endpoint.replacingOccurrences(of: #""S""#, with: "\"\(WebhookReceiver.secret)\"")
        do {
            _ = try Self.configuration(json).validate()
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == "webhooks.endpoints[0].\(field)", "\(error)")
        }
    }

    @Test("endpoints over https, or http on loopback, with known events are accepted; names are unique")
    func acceptedEndpoints() throws {
        let secret = WebhookReceiver.secret
        let configuration = try Self.configuration(
            #"""
            {"name": "crm", "url": "https://crm.example/hooks?team=1", "secret": "\#(secret)", "events": ["passkey.revoked", "user.deleted"],
             "previousSecret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
            {"name": "local-1", "url": "http://localhost:9000/hooks", "secret": "\#(secret)", "events": ["*"]},
            {"name": "local-2", "url": "http://[::1]:9000/", "secret": "\#(secret)", "events": ["*"]}
            """#
        )
        try configuration.validate()
        #expect(configuration.webhooks.endpoints.map(\.name) == ["crm", "local-1", "local-2"])
        #expect(
            configuration.webhooks.endpoints.map(\.previousSecret) == [
                "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", nil, nil,
            ]
        )
        var duplicate = configuration
        duplicate.webhooks.endpoints[2].name = "crm"
        #expect(throws: ConfigurationError.self) { try duplicate.validate() }
    }
}

/// The event types are a catalogue: docs/server.md lists exactly the types of `WebhookEventType.all`.
struct WebhookEventCatalogueTests {
    @Test func docsListEveryEventTypeAndNoOther() throws {
        let text = try String(
            contentsOf: OpenAPIDocument.packageRoot().appendingPathComponent("docs/server.md"),
            encoding: .utf8
        )
        let start = try #require(text.range(of: "Every webhook event's `type` is one of these"))
        let rows = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix {
            $0.hasPrefix("|")
        }
        let documented = rows.compactMap { row -> String? in
            let cells = row.split(separator: "`")
            return row.hasPrefix("| `") && cells.count > 1 ? String(cells[1]) : nil
        }
        #expect(documented == WebhookEventType.all.map(\.rawValue))
    }
}
