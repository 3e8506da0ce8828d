import Foundation
import PasskeyStorage

// Keys are random, so the checks may share a store; times are about `Fixture.now`.
extension StoreConformance {
    static let idempotency: [StoreConformanceCheck] = [
        StoreConformanceCheck("a key is claimed once, answered again with its body, and refused with another") {
            store in
            let claim = IdempotencyFixture.claim()
            try require(try await store.claimIdempotencyKey(claim, at: Fixture.now) == .claimed, "a new key is claimed")
            try require(
                try await store.claimIdempotencyKey(claim, at: Fixture.now + 1) == .running,
                "while the first request runs, the key is running"
            )
            var other = claim
            other.requestHash = Fixture.bytes()
            try require(
                try await store.claimIdempotencyKey(other, at: Fixture.now + 1) == .mismatch,
                "another body with the key is a mismatch"
            )
            let answer = IdempotentAnswer(status: 201, contentType: "application/json", body: Array(#"{"a":1}"#.utf8))
            try await store.finishIdempotencyKey(keyHash: other.keyHash, requestHash: other.requestHash, answer: answer)
            try await store.finishIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash, answer: answer)
            let later = IdempotentAnswer(status: 200, contentType: "text/plain", body: [1])
            try await store.finishIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash, answer: later)
            let replay = try await store.claimIdempotencyKey(claim, at: Fixture.now + 120)
            try require(replay == .answer(answer), "the first answer is given again, after its lock: \(replay)")
            try require(
                try await store.claimIdempotencyKey(other, at: Fixture.now + 2) == .mismatch,
                "an answered key with another body is a mismatch"
            )
            try require(
                try await store.claimIdempotencyKey(claim, at: claim.expiresAt) == .claimed,
                "an expired answer is forgotten: the key is claimed anew"
            )
        },
        StoreConformanceCheck("a released key, or one whose request stopped, is claimed again") { store in
            let claim = IdempotencyFixture.claim()
            _ = try await store.claimIdempotencyKey(claim, at: Fixture.now)
            try await store.releaseIdempotencyKey(keyHash: claim.keyHash, requestHash: Fixture.bytes())
            try require(
                try await store.claimIdempotencyKey(claim, at: Fixture.now) == .running,
                "another body's release frees nothing"
            )
            try await store.releaseIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash)
            try require(
                try await store.claimIdempotencyKey(claim, at: Fixture.now) == .claimed,
                "a released key is claimed again"
            )
            try require(
                try await store.claimIdempotencyKey(claim, at: claim.lockedUntil) == .claimed,
                "a claim past its lock without an answer is taken over"
            )
            var other = claim
            other.requestHash = Fixture.bytes()
            try require(
                try await store.claimIdempotencyKey(other, at: claim.lockedUntil + 1) == .mismatch,
                "a lapsed claim is taken over only with its own body"
            )
            let answer = IdempotentAnswer(status: 200, contentType: "application/json", body: [])
            try await store.finishIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash, answer: answer)
            try await store.releaseIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash)
            try require(
                try await store.claimIdempotencyKey(claim, at: Fixture.now) == .answer(answer),
                "an answered key is not released"
            )
        },
        StoreConformanceCheck("of racing claims of one key exactly one is claimed") { store in
            let claim = IdempotencyFixture.claim()
            let results = try await withThrowingTaskGroup(of: IdempotencyClaimResult.self) { group in
                for _ in 0..<20 { group.addTask { try await store.claimIdempotencyKey(claim, at: Fixture.now) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try require(results.filter { $0 == .claimed }.count == 1, "one claim must win: \(results)")
            try require(results.allSatisfy { $0 == .claimed || $0 == .running }, "the others run: \(results)")
        },
    ]
}

/// Claims for the checks: a random key and body, held a minute, kept a day.
enum IdempotencyFixture {
    static func claim(at time: Date = TestTime.fixed) -> IdempotencyClaim {
        IdempotencyClaim(
            keyHash: TestTime.randomBytes(),
            requestHash: TestTime.randomBytes(),
            lockedUntil: time + 60,
            expiresAt: time + 86_400
        )
    }
}
