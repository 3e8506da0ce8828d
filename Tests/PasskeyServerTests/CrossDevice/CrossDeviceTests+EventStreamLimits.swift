import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Testing

extension CrossDeviceTests {
    @Test(
        "one handoff holds at most maxEventStreamsPerHandoff streams and one address at most maxEventStreamsPerClient; past them, 429 RATE_LIMITED with Retry-After"
    )
    func streamLimitsPerHandoffAndAddress() async throws {
        let server = try TestServer {
            $0.limits.maxEventStreamsPerClient = 3
            // The test's own address is a proxy, so X-Forwarded-For stands for another client.
            $0.limits.trustedProxies = ["127.0.0.1"]
        }
        #expect(server.configuration.limits.maxEventStreamsPerHandoff == 2, "the default")
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let port = try #require(api.client.port)
            let (_, first) = try await api.handedOffSession("una", phone: &phone)
            var open: [HandoffEventStream] = []
            for _ in 0..<2 {
                let stream = try HandoffEventStream(port: port, handoff: first)
                #expect(try await stream.next() == "pending")
                open.append(stream)
            }
            // One poll token cannot take every place of the process: its third stream is refused.
            let third = try await HandoffEventStream(port: port, handoff: first).refusal()
            Self.expectStreamRefused(third, naming: "maxEventStreamsPerHandoff")

            let (_, second) = try await api.handedOffSession("una", phone: &phone, enrolled: true)
            let other = try HandoffEventStream(port: port, handoff: second)
            #expect(try await other.next() == "pending", "another handoff from the same address streams")
            open.append(other)
            // The address holds three streams now: a fourth handoff of its own is refused, another address is not.
            let (_, crowded) = try await api.handedOffSession("una", phone: &phone, enrolled: true)
            let refused = try await HandoffEventStream(port: port, handoff: crowded).refusal()
            Self.expectStreamRefused(refused, naming: "maxEventStreamsPerClient")
            let elsewhere = try HandoffEventStream(
                port: port,
                handoff: crowded,
                headers: ["X-Forwarded-For: 203.0.113.7"]
            )
            #expect(try await elsewhere.next() == "pending")
            // The streams held still follow their handoffs.
            _ = try await api.resume(first.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await open[0].next() == "claimed")
            #expect(try await open[1].next() == "claimed")
        }
    }

    /// A refused stream: 429 with `Retry-After`, the error body's `RATE_LIMITED`, and a message naming the limit and
    /// what to do (poll the status).
    static func expectStreamRefused(
        _ response: String,
        naming limit: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.hasPrefix("HTTP/1.1 429"), "\(response)", sourceLocation: sourceLocation)
        #expect(response.lowercased().contains("retry-after: "), "\(response)", sourceLocation: sourceLocation)
        #expect(response.contains("\"RATE_LIMITED\""), "\(response)", sourceLocation: sourceLocation)
        #expect(response.contains(limit), "\(response)", sourceLocation: sourceLocation)
        #expect(response.contains("/status"), "\(response)", sourceLocation: sourceLocation)
    }
}
