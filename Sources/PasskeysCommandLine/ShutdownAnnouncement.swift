import ServiceLifecycle

/// Says on standard output that the server is stopping once a graceful shutdown begins (SIGTERM or SIGINT), so that
/// whoever stopped it sees it heard; `passkeys serve` says when it has stopped.
struct ShutdownAnnouncement: Service {
    let announce: @Sendable (String) -> Void

    func run() async throws {
        // Ends with a CancellationError when the group is cancelled instead: then there is nothing to say.
        try await gracefulShutdown()
        announce("passkeys stopping: finishing the requests in progress\n")
    }
}
