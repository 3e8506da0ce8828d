import HTTPTypes
import PasskeyServer
import PasskeyTesting
import PostgresTestSupport
import Testing

extension PostgresScaleOutTests {
    @Test("one Idempotency-Key sent concurrently through two instances: the request runs once")
    func oneIdempotencyKeyAcrossInstances() async throws {
        try await Self.withTwoInstances { a, b in
            let body = Array(#"{"userId": "alice", "userName": "alice@example.com"}"#.utf8)
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<20 {
                    let api = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        try await api.send(
                            .post,
                            "/v1/registrations",
                            bearer: TestServer.apiKey,
                            body: body,
                            headers: [IdempotencyTests.keyHeader: "race"]
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let created = results.filter { $0.status == .created }
            let first = try #require(created.first { $0.headers[IdempotencyTests.replayedHeader] == nil })
            #expect(created.filter { $0.headers[IdempotencyTests.replayedHeader] == nil }.count == 1, "it ran once")
            #expect(created.allSatisfy { $0.body == first.body }, "every replay is the first answer")
            for busy in results where busy.status != .created {
                expectError(busy, "IDEMPOTENT_REPLAY", .conflict)
                #expect(try busy.json()["error"]?["retryable"]?.bool == true)
            }
            // Afterwards, through either instance, the first answer again.
            for api in [a, b] {
                let again = try await api.send(
                    .post,
                    "/v1/registrations",
                    bearer: TestServer.apiKey,
                    body: body,
                    headers: [IdempotencyTests.keyHeader: "race"]
                )
                #expect(again.body == first.body && again.headers[IdempotencyTests.replayedHeader] == "true")
            }
        }
    }
}
