extension AuditChainVerification {
    /// Verifies the audit log of `store`: reads its checkpoints, then walks its events, `pageSize` at a time. Throws
    /// the first ``AuditChainProblem``, or the ``StoreError`` of a read that failed.
    public static func verify(
        _ store: some AuditStore,
        trustedKeys: [[UInt8]]?,
        pageSize: Int = 1000
    ) async throws -> AuditChainReport {
        var checkpoints: [AuditCheckpoint] = []
        while true {
            let page = try await store.auditCheckpoints(after: checkpoints.last?.sequence ?? .min, limit: pageSize)
            checkpoints += page
            if page.count < pageSize { break }
        }
        var verification = try AuditChainVerification(checkpoints: checkpoints, trustedKeys: trustedKeys)
        var after = Int64.min
        while true {
            let page = try await store.auditEvents(after: after, limit: pageSize, userID: nil)
            for event in page { try verification.check(event) }
            guard page.count == pageSize, let last = page.last else { break }
            after = last.sequence
        }
        return try verification.finish()
    }
}
