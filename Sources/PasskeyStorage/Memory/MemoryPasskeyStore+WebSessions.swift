public import Foundation

extension MemoryPasskeyStore: WebSessionStore {
    public func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) throws(StoreError) {
        guard webSessionsByID[session.id] == nil else {
            throw StoreError(.duplicate, "A web session with id \(session.id) exists.")
        }
        guard !webSessionsByID.values.contains(where: { $0.secretHash == session.secretHash }) else {
            throw StoreError(.duplicate, "A web session with this secret exists.")
        }
        if let userID = session.userID, user(id: userID) == nil {
            throw StoreError(.notFound, "No user \(userID) for the web session.")
        }
        let expired = webSessionsByID.values.filter { $0.expiresAt < session.createdAt }
            .sorted { $0.expiresAt < $1.expiresAt }
            .prefix(WebSessionRecord.removedPerCall)
        for old in expired { webSessionsByID[old.id] = nil }
        webSessionsByID[session.id] = session
        if let userID = session.userID {
            let kept = Set(
                Self.newestFirst(webSessionsByID.values.filter { $0.userID == userID })
                    .prefix(max(1, maximumPerUser)).map(\.id)
            )
            for old in webSessionsByID.values where old.userID == userID && !kept.contains(old.id) {
                webSessionsByID[old.id] = nil
            }
        }
    }

    public func webSession(secretHash: [UInt8], at time: Date) -> WebSessionRecord? {
        webSessionsByID.values.first { $0.secretHash == secretHash && $0.isLive(at: time) }
    }

    public func webSessions(userID: String, at time: Date) -> [WebSessionRecord] {
        Self.newestFirst(webSessionsByID.values.filter { $0.userID == userID && $0.isLive(at: time) })
    }

    public func webSessions(userID: String?, at time: Date, offset: Int, limit: Int) -> [WebSessionRecord] {
        guard limit > 0 else { return [] }
        let matching = webSessionsByID.values.filter { session in
            guard session.isLive(at: time) else { return false }
            if let userID { return session.userID == userID }
            return session.userID == nil && session.kind == .console
        }
        return Array(Self.newestFirst(matching).dropFirst(max(0, offset)).prefix(limit))
    }

    /// By `createdAt`, newest first, and those created at the same time in descending byte order of their ids.
    private static func newestFirst(_ sessions: some Sequence<WebSessionRecord>) -> [WebSessionRecord] {
        sessions.sorted { first, second in
            if first.createdAt != second.createdAt { return first.createdAt > second.createdAt }
            return second.id.utf8.lexicographicallyPrecedes(first.id.utf8)
        }
    }

    public func deleteWebSession(id: String) -> Bool {
        webSessionsByID.removeValue(forKey: id) != nil
    }

    public func deleteWebSessions(userID: String, credentialID: [UInt8]?) -> Int {
        let ended = webSessionsByID.values.filter { session in
            session.userID == userID && (credentialID == nil || session.credentialID == credentialID)
        }
        for session in ended { webSessionsByID[session.id] = nil }
        return ended.count
    }

    public func signOutEverywhere(userID: String, at time: Date) -> Int {
        guard users[userID] != nil else { return 0 }
        endFlowsInFlight(ofUser: userID, at: time)
        return deleteWebSessions(userID: userID, credentialID: nil)
    }
}
