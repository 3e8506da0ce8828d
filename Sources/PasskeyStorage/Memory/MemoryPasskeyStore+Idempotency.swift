public import Foundation

extension MemoryPasskeyStore: IdempotencyStore {
    public func claimIdempotencyKey(_ claim: IdempotencyClaim, at time: Date) -> IdempotencyClaimResult {
        if let stored = idempotencyKeys[claim.keyHash], stored.claim.expiresAt > time {
            guard stored.claim.requestHash == claim.requestHash else { return .mismatch }
            if let answer = stored.answer { return .answer(answer) }
            if stored.claim.lockedUntil > time { return .running }
        }
        idempotencyKeys[claim.keyHash] = StoredIdempotencyKey(claim: claim, answer: nil)
        return .claimed
    }

    public func finishIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8], answer: IdempotentAnswer) {
        guard let stored = idempotencyKeys[keyHash], stored.claim.requestHash == requestHash, stored.answer == nil
        else { return }
        idempotencyKeys[keyHash]?.answer = answer
    }

    public func releaseIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8]) {
        guard let stored = idempotencyKeys[keyHash], stored.claim.requestHash == requestHash, stored.answer == nil
        else { return }
        idempotencyKeys[keyHash] = nil
    }
}

/// A claimed idempotency key and, once its request finished, its answer.
struct StoredIdempotencyKey: Sendable {
    var claim: IdempotencyClaim
    var answer: IdempotentAnswer?
}
