import PasskeyTesting
import Testing

@testable import WebAuthn

/// §7.2 step 22: the signature counter.
struct SignCountTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let stored: UInt32
        let received: UInt32
        let policy: SignCountPolicy
        /// nil: rejected as SIGN_COUNT_REGRESSION; otherwise the counter to store and whether it regressed.
        let outcome: (signCount: UInt32, regressed: Bool)?
        var testDescription: String { "stored \(stored), received \(received), \(policy)" }
    }

    static let cases: [Case] = [
        Case(stored: 0, received: 0, policy: .rejectRegression, outcome: (0, false)),  // both zero: no counter
        Case(stored: 0, received: 1, policy: .rejectRegression, outcome: (1, false)),
        Case(stored: 5, received: 6, policy: .rejectRegression, outcome: (6, false)),
        Case(stored: 5, received: 1000, policy: .rejectRegression, outcome: (1000, false)),
        Case(stored: UInt32.max - 1, received: UInt32.max, policy: .rejectRegression, outcome: (UInt32.max, false)),
        Case(stored: 5, received: 5, policy: .rejectRegression, outcome: nil),
        Case(stored: 5, received: 4, policy: .rejectRegression, outcome: nil),
        Case(stored: 5, received: 0, policy: .rejectRegression, outcome: nil),
        Case(stored: UInt32.max, received: 0, policy: .rejectRegression, outcome: nil),
        Case(stored: 5, received: 5, policy: .reportRegression, outcome: (5, true)),
        Case(stored: 5, received: 2, policy: .reportRegression, outcome: (5, true)),
        Case(stored: 5, received: 0, policy: .reportRegression, outcome: (5, true)),
        Case(stored: 0, received: 0, policy: .reportRegression, outcome: (0, false)),
        Case(stored: 5, received: 9, policy: .reportRegression, outcome: (9, false)),
    ]

    @Test("§7.2 step 22: a counter that does not increase is a possible clone", arguments: cases)
    func signCount(_ testCase: Case) throws {
        var authenticator = TestAuthenticator()
        var record = authenticator.record
        record.signCount = testCase.stored
        authenticator.signCount = testCase.received
        let response = Fixture.authentication(&authenticator, incrementCounter: false)
        let ceremony = Fixture.authenticationCeremony(signCountPolicy: testCase.policy)
        if let outcome = testCase.outcome {
            let result = try ceremony.verify(response, credential: record)
            #expect(result.signCount == outcome.signCount)
            #expect(result.signCountRegressed == outcome.regressed)
        } else {
            #expect(throws: code(.signCountRegression)) { try ceremony.verify(response, credential: record) }
        }
    }
}
