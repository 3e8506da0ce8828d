public import Logging
public import ServiceLifecycle

/// The server stopped before it listened, without an error of its own.
public struct ServerDidNotListen: Error {}

/// Runs a server until `body` returns, as `passkeys serve` runs one: `build` makes it, given the function it must
/// call with the port it listens on (what `PasskeyApplication.build`'s `onServerRunning` gets); `body` gets that
/// port; then the server is shut down gracefully and waited for. A server that stops before it listens throws its
/// own error, or ``ServerDidNotListen``.
public func withListeningService<S: Service>(
    logger: Logger,
    _ build: (_ announce: @escaping @Sendable (Int) async -> Void) -> S,
    _ body: (Int) async throws -> Void
) async throws {
    let (ports, announce) = AsyncStream.makeStream(of: Int.self)
    let group = ServiceGroup(services: [build { port in announce.yield(port) }], logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { announce.finish() }
            try await group.run()
        }
        var announced = ports.makeAsyncIterator()
        guard let port = await announced.next() else {
            try await tasks.waitForAll()
            throw ServerDidNotListen()
        }
        do {
            try await body(port)
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}
