import HTTPTypes
import PasskeyServer
import PasskeyTesting
import PostgresTestSupport
import Testing
import WebAuthn

/// Recovery with two server instances on one PostgreSQL database, as two processes behind a load balancer.
@Suite(.enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct RecoveryScaleOutTests {
    @Test("20 exchanges of one recovery token through two instances: exactly one; the attempt limit is shared")
    func exchangeAcrossInstances() async throws {
        try await PostgresScaleOutTests.withTwoInstances(configure: Recovery.simulated) { a, b in
            var phone = TestAuthenticator()
            try await a.enroll("ada", authenticator: &phone)
            let start = try await a.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            let run = try await b.startRecoveryIdentityVerification(start)
            _ = try await a.decide(run: run, "approved", faceMatch: "pass").expect(.ok, JSONValue.self)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    let api = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        try await api.recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.count { $0 == .ok } == 1)
            #expect(statuses.count { $0 == .unauthorized } == 19)
            // Three recoveries a day for a user, counted in the database: the third start through either instance is
            // the last.
            #expect(try await b.startRecovery(userID: "ada").status == .created)
            #expect(try await a.startRecovery(userID: "ada").status == .created)
            expectError(try await b.startRecovery(userID: "ada"), "RECOVERY_RATE_LIMITED", .tooManyRequests)
        }
    }
}
