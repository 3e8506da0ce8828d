import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyStorage
import PasskeyTesting
import Synchronization
import Testing
import WebAuthn

extension CrossDeviceTests {
    @Test("open streams share one store read each half second that carries all their handoffs, and none once they end")
    func streamsShareReads() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let port = try #require(api.client.port)
            var handoffs: [Handoff] = []
            var streams: [HandoffEventStream] = []
            for _ in 0..<3 {
                let (_, handoff) = try await api.handedOffSession("rea", phone: &phone, enrolled: !handoffs.isEmpty)
                let stream = try HandoffEventStream(port: port, handoff: handoff)
                #expect(try await stream.next() == "pending")
                handoffs.append(handoff)
                streams.append(stream)
            }
            let start = ContinuousClock.now
            let before = store.handoffReads.withLock { $0.count }
            _ = try await api.resume(handoffs[2].handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await streams[2].next() == "claimed")
            let elapsed = ContinuousClock.now - start
            let reads = store.handoffReads.withLock { Array($0[before...]) }
            #expect(
                reads.last.map(Set.init) == Set(handoffs.map(\.crossPlatformSessionId)),
                "the read that saw the claim carries every streamed handoff: \(reads)"
            )
            // The loop sleeps half a second before each read; a read per stream would make three in that time.
            #expect(reads.count <= Int(elapsed / .milliseconds(500)) + 1, "\(reads.count) reads in \(elapsed)")

            for (handoff, stream) in zip(handoffs, streams) {
                _ = try await api.cancel(handoff).expect(.ok, JSONValue.self)
                #expect(try await stream.next() == "cancelled")
                #expect(try await stream.next() == nil, "a final status ends the stream")
            }
            // The streams ended, so nothing is followed: at most a read already begun, then none.
            let ended = store.handoffReads.withLock { $0.count }
            try await Task.sleep(for: .seconds(2))
            #expect(store.handoffReads.withLock { $0.count } <= ended + 1)
        }
    }

    @Test("a store that fails while streams are open ends them; the client falls back to the status, which says why")
    func storeFailureEndsStreams() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("sto", phone: &phone)
            let stream = try HandoffEventStream(port: try #require(api.client.port), handoff: handoff)
            #expect(try await stream.next() == "pending")
            store.fail(with: StoreError(.unavailable, "database is locked"))
            #expect(try await stream.next() == nil, "the stream ends")
            let status = try await api.client(
                .get,
                "/v1/client/cross-platform/\(handoff.crossPlatformSessionId)/status",
                token: handoff.pollToken
            )
            expectError(status, "SERVICE_UNAVAILABLE", .serviceUnavailable, retryable: true)
        }
    }
}
