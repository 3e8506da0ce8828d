import Foundation
import HummingbirdTesting
import PasskeyServer
import ProcessTestSupport
import Testing

/// Connections are bounded in number and in time (`limits.maxConnections`, `requestHeaderTimeoutSeconds`,
/// `requestBodyTimeoutSeconds`, `idleTimeoutSeconds`): a client that connects and sends nothing, or stops in the
/// middle of a body, cannot hold a connection for ever, and many such clients cannot keep `/health` from answering.
@Suite("Connection limits")
struct ConnectionLimitTests {
    static let health = "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    /// What each connection saw until the server closed it (or was silent for the connection's receive timeout).
    static func ends(of connections: [RawConnection]) async -> [(text: String, closed: Bool)] {
        await withTaskGroup(of: (Int, (text: String, closed: Bool)).self) { group in
            for (index, connection) in connections.enumerated() {
                group.addTask { (index, await connection.closing()) }
            }
            var ends = [(text: String, closed: Bool)](repeating: ("", false), count: connections.count)
            for await (index, end) in group { ends[index] = end }
            return ends
        }
    }

    /// Runs the application as `passkeys serve` does, on a port of 127.0.0.1 the system chooses, until `body` returns.
    /// (`app.test(.live)` rebuilds the configuration without `availableConnectionsDelegate`, so the maximum would
    /// not apply there.)
    static func withListeningServer(
        configure: @escaping (inout ServerConfiguration) -> Void,
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let server = try TestServer {
            configure(&$0)
            $0.port = 0
        }
        let logs = server.logs
        let build = { @Sendable (announce: @escaping @Sendable (Int) async -> Void) in
            PasskeyApplication.build(
                service: server.service,
                logger: logs.logger("passkeys.http"),
                onServerRunning: announce
            )
        }
        try await withListeningService(logger: logs.logger("service-group"), build, body)
    }

    @Test("a connection that sends no request, or a body shorter than it declared, is closed by the server")
    func slowClientsAreClosed() async throws {
        let server = try TestServer {
            $0.limits.requestHeaderTimeoutSeconds = 1
            $0.limits.requestBodyTimeoutSeconds = 1
            // Long, so that the read timeouts, not the idle timeout, close the connections.
            $0.limits.idleTimeoutSeconds = 600
        }
        try await server.withLiveAPI { api in
            let port = try #require(api.client.port)
            let silent = try RawConnection(port: port, receiveTimeout: .seconds(30))
            let partialHeaders = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try partialHeaders.send("GET /health HTTP/1.1\r\nHost: local")
            let shortBody = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try shortBody.send(
                "POST /v1/registrations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(TestServer.apiKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"userId\": "
            )
            let ends = await Self.ends(of: [silent, partialHeaders, shortBody])
            #expect(ends[0].closed && ends[0].text.isEmpty, "a silent connection")
            #expect(ends[1].closed && ends[1].text.isEmpty, "headers that never end")
            #expect(ends[2].closed, "a body that never ends")
        }
    }

    @Test("a kept-alive connection is closed after the idle timeout")
    func idleConnectionIsClosed() async throws {
        let server = try TestServer {
            $0.limits.idleTimeoutSeconds = 1
            $0.limits.requestHeaderTimeoutSeconds = 300
        }
        try await server.withLiveAPI { api in
            let port = try #require(api.client.port)
            let connection = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let end = await connection.closing()
            #expect(end.text.hasPrefix("HTTP/1.1 200"))
            #expect(end.closed)
        }
    }

    @Test("at the maximum, a new client waits until a connection closes, then is served")
    func maximumConnections() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.limits.maxConnections = 2
            $0.limits.requestHeaderTimeoutSeconds = 300
            $0.limits.idleTimeoutSeconds = 300
        }
        try await Self.withListeningServer(configure: configure) { port in
            // One at a time, so that each is accepted before the next arrives.
            var idle: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: port, receiveTimeout: .seconds(30))
                try connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(await connection.received() != .nothing)
                idle.append(connection)
            }
            let health = try RawConnection(port: port, receiveTimeout: .seconds(1))
            try health.send(Self.health)
            // Not accepted while the maximum is open (an answer here is the failure; its absence proves little alone).
            #expect(await health.received() == .nothing)
            for connection in idle { connection.hangUp() }
            health.setReceiveTimeout(.seconds(30))
            let answer = await health.closing()
            #expect(answer.text.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a connection taking the last slot closes the oldest silent one: silent clients cannot keep others out")
    func silentConnectionsMakeRoom() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.limits.maxConnections = 3
            // Long: without the eviction, nothing would free a slot within this test.
            $0.limits.requestHeaderTimeoutSeconds = 300
            $0.limits.idleTimeoutSeconds = 300
        }
        try await Self.withListeningServer(configure: configure) { port in
            // A used kept-alive connection is never chosen, whatever its age.
            let used = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try used.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await used.received() != .nothing)
            // The second silent one takes the last slot and the other goes; the client after them takes it again,
            // and the second goes too.
            let silent = try (0..<2).map { _ in try RawConnection(port: port, receiveTimeout: .seconds(30)) }
            // Arrival order is what the server goes by: the silent ones are accepted well before the client.
            try await Task.sleep(for: .seconds(1))
            let health = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try health.send(Self.health)
            #expect(await health.closing().text.hasPrefix("HTTP/1.1 200"), "served well before any timeout")
            let ends = await Self.ends(of: silent)
            #expect(ends.allSatisfy { $0.closed && $0.text.isEmpty })
            try used.send(Self.health)
            #expect(await used.closing().text.hasPrefix("HTTP/1.1 200"), "the used connection stays open")
        }
    }

    @Test("many idle connections beyond the maximum: each is closed in time, /health answers, the server lives")
    func floodOfIdleConnections() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.limits.maxConnections = 4
            $0.limits.requestHeaderTimeoutSeconds = 1
        }
        try await Self.withListeningServer(configure: configure) { port in
            let idle = try (0..<12).map { _ in try RawConnection(port: port, receiveTimeout: .seconds(60)) }
            let health = try RawConnection(port: port, receiveTimeout: .seconds(60))
            try health.send(Self.health)
            let ends = await Self.ends(of: idle + [health])
            #expect(ends.dropLast().allSatisfy { $0.closed && $0.text.isEmpty })
            #expect(ends.last?.text.hasPrefix("HTTP/1.1 200") == true)
            // And it still serves.
            let after = try RawConnection(port: port, receiveTimeout: .seconds(30))
            try after.send(Self.health)
            #expect(await after.closing().text.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test(
        "the maximum leaves descriptors in reserve",
        arguments: [(1024, 10_000, 896), (65_536, 10_000, 10_000), (100, 10_000, 36), (4096, 50, 50)]
    )
    func reserve(descriptors: Int, configured: Int, expected: Int) {
        #expect(ConnectionLimits.maximum(configured: configured, descriptorLimit: descriptors) == expected)
    }
}
