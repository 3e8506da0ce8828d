public import Foundation

extension MemoryPasskeyStore: StorePurging {
    public func purge(before time: Date, auditBefore: Date?, limit: Int) -> PurgeReport {
        guard limit > 0 else { return PurgeReport() }
        var report = PurgeReport()

        let reservations = credentialsByID.values.filter {
            $0.status == .reserved && ($0.reservedUntil ?? .distantPast) < time
        }
        .prefix(limit)
        for credential in reservations { credentialsByID[credential.id] = nil }
        report.reservations = reservations.count

        let reservedFlows = Set(credentialsByID.values.compactMap { $0.status == .reserved ? $0.flowID : nil })
        let deadFlows = flows.values.filter { flow in
            flow.expiresAt < time && (flow.resultExpiresAt ?? .distantPast) < time && !reservedFlows.contains(flow.id)
        }
        .sorted { $0.expiresAt < $1.expiresAt }
        .prefix(limit)
        for flow in deadFlows {
            flows[flow.id] = nil
            if flow.kind == .registration {
                purgedRegistrations[flow.id] = (time, time + max(0, flow.expiresAt.timeIntervalSince(flow.createdAt)))
            }
        }
        dropOrphanedCrossPlatformSessions()
        report.flows = deadFlows.count

        let candidates = Set(deadFlows.compactMap(\.userID))
        let abandoned = candidates.filter { id in
            guard let user = users[id], user.createdAt < time else { return false }
            return !credentialsByID.values.contains { $0.userID == id } && !flows.values.contains { $0.userID == id }
        }
        for id in abandoned {
            users[id] = nil
            workflowRunsByID = workflowRunsByID.filter { $0.value.userID != id }
        }
        report.users = abandoned.count

        let sessions = webSessionsByID.values.filter { $0.expiresAt < time }.prefix(limit)
        for session in sessions { webSessionsByID[session.id] = nil }
        report.webSessions = sessions.count

        let windows = limitWindowsByKey.values.filter { $0.end < time }.prefix(limit)
        for window in windows { limitWindowsByKey[window.keyHash] = nil }
        report.limitWindows = windows.count

        let forgotten = purgedRegistrations.filter { $0.value.forgetAt < time }.keys.prefix(limit)
        for id in forgotten { purgedRegistrations[id] = nil }
        report.purgedRegistrationIDs = forgotten.count

        let answers = idempotencyKeys.filter { $0.value.claim.expiresAt < time }.keys.prefix(limit)
        for key in answers { idempotencyKeys[key] = nil }
        report.idempotentAnswers = answers.count

        let families = refreshTokenFamiliesByID.values.filter { $0.expiresAt < time }
            .sorted { $0.expiresAt < $1.expiresAt }.prefix(limit)
        for family in families { refreshTokenFamiliesByID[family.id] = nil }
        let ended = Set(families.map(\.id))
        refreshTokensByHash = refreshTokensByHash.filter { !ended.contains($0.value.familyID) }
        report.refreshTokenFamilies = families.count

        let keys = sessionSigningKeys.filter { ($0.publishedUntil ?? .distantFuture) < time }.prefix(limit)
        let unpublished = Set(keys.map(\.id))
        sessionSigningKeys.removeAll { unpublished.contains($0.id) }
        report.signingKeys = keys.count

        if let auditBefore {
            let runs = workflowRunsByID.values.filter { $0.expiresAt < auditBefore }.prefix(limit)
            for run in runs { workflowRunsByID[run.id] = nil }
            report.workflowRuns = runs.count

            report.auditEvents = purgeAuditChain(before: auditBefore, limit: limit)

            let attempts = recoveryAttemptsByID.values.filter { $0.expiresAt < auditBefore }
                .sorted { $0.expiresAt < $1.expiresAt }.prefix(limit)
            for attempt in attempts { recoveryAttemptsByID[attempt.id] = nil }
            report.recoveryAttempts = attempts.count
        }
        return report
    }
}

extension MemoryPasskeyStore {
    /// Deletes the oldest audit events up to the newest checkpoint signed before `time`, at most `limit`, then the
    /// checkpoints older than the newest one before the oldest event left (see ``StorePurging``).
    private func purgeAuditChain(before time: Date, limit: Int) -> Int {
        guard let bound = auditCheckpoints.last(where: { $0.time < time })?.sequence else { return 0 }
        let old = audit.prefix { $0.sequence <= bound }.prefix(limit).count
        audit.removeFirst(old)
        let firstKept = audit.first?.sequence ?? (auditCheckpoints.last?.sequence ?? 0) + 1
        if let anchor = auditCheckpoints.last(where: { $0.sequence < firstKept }) {
            auditCheckpoints.removeAll { $0.sequence < anchor.sequence }
        }
        return old
    }
}
