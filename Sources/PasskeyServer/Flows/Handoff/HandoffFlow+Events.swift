import Foundation
import Hummingbird
import PasskeyStorage
import ServiceLifecycle

/// `GET /v1/client/cross-platform/{id}/events`: a handoff's status as server-sent events — one `status` event now and
/// one for each change, ending after a final status (`approved`, `rejected`, `cancelled`, `expired`), with a comment
/// line as a heartbeat every 15 seconds. The status lives in the store, so a change made by another server process is
/// seen: the process's ``HandoffWatch`` reads every streamed handoff there each half second. A stream past its limits
/// — open streams in the process, per handoff and per client address (``EventStreamGate``) — is refused with 429
/// `RATE_LIMITED` before it starts: the client polls `…/status`.
extension HandoffFlow {
    static let handoffHeartbeat = Duration.seconds(15)

    func events(of session: CrossPlatformSessionRecord, by caller: Caller) async throws(APIError) -> Response {
        let id = session.id
        let first = try await status(of: session)
        let limits = configuration.limits
        let place: EventStreamGate.Place
        switch eventStreams.enter(handoff: id, client: caller.clientIP ?? "unknown", limits: limits) {
        case .success(let taken): place = taken
        case .failure(let refusal): throw APIError.eventStreamRefused(refusal.limit, limits)
        }
        let body = ResponseBody { writer in
            defer { place.leave() }
            var status = first
            // Heartbeats go by the clock, not by reads counted: on a busy server a read takes longer than its interval.
            var lastWrite = ContinuousClock.now
            try await writer.write(Self.event(status))
            // A server shutting down ends the stream; the page falls back to polling, or reconnects. So does a store
            // that fails, or a handoff that is gone (the watch's statuses end).
            var statuses = watch.follow(id).makeAsyncIterator()
            while !status.isFinal, !Task.isShuttingDownGracefully, let next = await statuses.next() {
                if next != status {
                    status = next
                    lastWrite = .now
                    try await writer.write(Self.event(status))
                } else if ContinuousClock.now - lastWrite >= Self.handoffHeartbeat {
                    lastWrite = .now
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: body
        )
    }

    private static func event(_ status: HandoffStatusResponse) -> ByteBuffer {
        let data = (try? JSONBody.encode(status)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ByteBuffer(string: "event: status\ndata: \(data)\n\n")
    }
}
