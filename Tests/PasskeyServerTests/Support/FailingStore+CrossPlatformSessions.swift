import Foundation
import PasskeyStorage
import Synchronization

extension FailingStore {
    func createCrossPlatformSession(
        _ session: CrossPlatformSessionRecord,
        flowPayload: [UInt8],
        at time: Date
    ) async throws(StoreError) -> Bool {
        try check()
        return try await base.createCrossPlatformSession(session, flowPayload: flowPayload, at: time)
    }

    func crossPlatformSession(id: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try check()
        return await base.crossPlatformSession(id: id)
    }

    func crossPlatformSession(handoffTokenHash: [UInt8]) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try check()
        return await base.crossPlatformSession(handoffTokenHash: handoffTokenHash)
    }

    func crossPlatformSession(flowID: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try check()
        return await base.crossPlatformSession(flowID: flowID)
    }

    func crossPlatformSessions(ids: [String]) async throws(StoreError) -> [CrossPlatformSessionFlow] {
        try check()
        handoffReads.withLock { $0.append(ids) }
        return await base.crossPlatformSessions(ids: ids)
    }

    func claimCrossPlatformSession(
        handoffTokenHash: [UInt8],
        clientTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try check()
        return await base.claimCrossPlatformSession(
            handoffTokenHash: handoffTokenHash,
            clientTokenHash: clientTokenHash,
            at: time
        )
    }

    func updateCrossPlatformSession(
        id: String,
        from: Set<CrossPlatformSessionRecord.Status>,
        to status: CrossPlatformSessionRecord.Status,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try check()
        return await base.updateCrossPlatformSession(id: id, from: from, to: status, at: time)
    }

    func countCrossPlatformCodeFailure(
        id: String,
        rejectAt: Int,
        at time: Date
    ) async throws(StoreError)
        -> CrossPlatformSessionRecord?
    {
        try check()
        return await base.countCrossPlatformCodeFailure(id: id, rejectAt: rejectAt, at: time)
    }
}
