import Testing

@testable import PasskeyStorePostgres

/// The gate in front of the PostgreSQL store's pool, alone: turns are taken at once while free; an operation that
/// waits past its deadline or is cancelled gives up without taking a turn, so none is ever lost.
@Suite("PostgreSQL store: the gate in front of the pool")
struct ConnectionGateTests {
    static let timeout = Duration.seconds(60)

    /// A deadline that has passed: a waiter with it fails as soon as the gate's timer looks.
    static var passed: ContinuousClock.Instant { .now - .seconds(1) }
    static var distant: ContinuousClock.Instant { .now + timeout }

    @Test("as many turns as the capacity are taken at once; the next operation waits, and fails at its deadline")
    func capacity() async throws {
        let gate = ConnectionGate(capacity: 2)
        // No connection is known open yet: the pool would have to open one for each.
        #expect(try await gate.enter(until: Self.distant, timeout: Self.timeout) == false)
        #expect(try await gate.enter(until: Self.distant, timeout: Self.timeout) == false)
        let error = await #expect(throws: ConnectionWaitTimeout.self) {
            _ = try await gate.enter(until: Self.passed, timeout: .seconds(3))
        }
        #expect(error?.timeout == .seconds(3))
    }

    @Test("a turn given back goes to the operation waiting for it")
    func handOver() async throws {
        let gate = ConnectionGate(capacity: 1)
        _ = try await gate.enter(until: Self.distant, timeout: Self.timeout)
        let waiting = Task { try await gate.enter(until: Self.distant, timeout: Self.timeout) }
        gate.leave()
        _ = try await waiting.value
        // The one turn is the waiter's now.
        await #expect(throws: ConnectionWaitTimeout.self) {
            _ = try await gate.enter(until: Self.passed, timeout: Self.timeout)
        }
    }

    @Test("operations that gave up waiting, at their deadline or cancelled, hold no turn")
    func givingUpTakesNoTurn() async throws {
        let gate = ConnectionGate(capacity: 1)
        _ = try await gate.enter(until: Self.distant, timeout: Self.timeout)
        for _ in 0..<5 {
            await #expect(throws: ConnectionWaitTimeout.self) {
                _ = try await gate.enter(until: Self.passed, timeout: Self.timeout)
            }
        }
        let cancelled = Task { try await gate.enter(until: Self.distant, timeout: Self.timeout) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
        gate.leave()
        // Exactly one turn: taken at once, and then none is free.
        _ = try await gate.enter(until: Self.passed, timeout: Self.timeout)
        await #expect(throws: ConnectionWaitTimeout.self) {
            _ = try await gate.enter(until: Self.passed, timeout: Self.timeout)
        }
    }
}
