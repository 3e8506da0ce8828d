import Foundation
import PasskeyStorage
import WebAuthn

/// The web pages' signed-in sessions of a user, as the operator console lists and ends them.
struct WebSessionsFlow: ServiceFlow {
    let context: FlowContext
}

extension WebSessionsFlow {
    /// The user's sessions that have not ended, newest first.
    func webSessions(userID: String) async throws(APIError) -> [WebSessionRecord] {
        try Validation.userID(userID)
        let time = now()
        return try await storage { try await store.webSessions(userID: userID, at: time) }
    }

    /// One page of the user's sessions that have not ended (or, without a user, of the console's break-glass
    /// sessions), newest first: `limit` at most, after the first `offset`.
    func webSessions(userID: String?, offset: Int, limit: Int) async throws(APIError) -> [WebSessionRecord] {
        if let userID { try Validation.userID(userID) }
        let time = now()
        return try await storage {
            try await store.webSessions(userID: userID, at: time, offset: offset, limit: limit)
        }
    }

    /// Ends one of the user's sessions (`sessionID`), or all of them with every flow of theirs in flight (a reset of
    /// the user, see `PasskeyStore`); audited as `web-session.ended`.
    func endWebSessions(userID: String, sessionID: String?, by caller: Caller) async throws(APIError) {
        let ended: Int
        if let sessionID {
            guard try await webSessions(userID: userID).contains(where: { $0.id == sessionID }) else {
                throw APIError.notFound("No session \(sessionID) of user \(userID); it may have ended already.")
            }
            ended = try await storage { try await store.deleteWebSession(id: sessionID) } ? 1 : 0
        } else {
            // "Sign out everywhere" resets the user: their flows in flight end with their sessions.
            let time = now()
            ended = try await storage { try await store.signOutEverywhere(userID: userID, at: time) }
        }
        await audit(
            .webSessionEnded,
            by: caller,
            userID: userID,
            subject: sessionID,
            details: ["ended": "\(ended)"]
        )
    }
}

extension WebSessionsFlow {
    /// Stores a signed-in session; the user's oldest sessions past `maximumPerUser` end with it.
    func start(_ session: WebSessionRecord, maximumPerUser: Int) async throws(APIError) {
        try await storage { try await store.createWebSession(session, maximumPerUser: maximumPerUser) }
    }

    /// The signed-in session a cookie's secret names, if it has not ended.
    func session(secretHash: [UInt8], at time: Date) async throws(APIError) -> WebSessionRecord? {
        try await storage { try await store.webSession(secretHash: secretHash, at: time) }
    }

    /// Ends one session; false when there was none with this id.
    func end(id: String) async throws(APIError) -> Bool {
        try await storage { try await store.deleteWebSession(id: id) }
    }
}
