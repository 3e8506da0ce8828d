import Foundation
import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    /// Ends every flow of the user that is in flight, inside the caller's transaction, as a reset of the user does
    /// (see `PasskeyStore`): their handoffs are rejected; their flows in flight, their unredeemed sign-ins and their
    /// registrations holding a reservation are aborted, their challenges cleared; the reservations are released; and
    /// their open recovery attempts are cancelled; and their refresh-token families are revoked. The one place this
    /// store does it; every reset calls it.
    ///
    /// Takes the user's row lock first, as every insert of a credential does: a registration completing in another
    /// process either commits before (and the reset sees its credential) or waits and then finds its flow aborted.
    /// Returns false, changing nothing, when there is no such user.
    static func endFlowsInFlight(
        ofUser userID: String,
        at time: Date,
        on connection: PostgresConnection
    ) async throws -> Bool {
        guard try await lockUser(userID, on: connection) else { return false }
        let handoffs = CrossPlatformSessionRecord.Status.inFlight.map(\.rawValue).sorted()
        let flows = FlowStatus.inFlight.map(\.rawValue).sorted()
        try await connection.rows(
            """
            UPDATE cross_platform_sessions SET status = 'rejected', updated_at = \(time)
            WHERE status = ANY(\(handoffs)) AND flow_id IN (SELECT id FROM flows WHERE user_id = \(userID))
            """
        )
        try await connection.rows(
            """
            UPDATE flows SET status = 'aborted', challenge_hash = NULL, challenge_expires_at = NULL, updated_at = \(time)
            WHERE user_id = \(userID) AND (
                status = ANY(\(flows))
                OR (status = 'completed' AND (
                    kind = 'authentication'
                    OR id IN (SELECT flow_id FROM credentials WHERE user_id = \(userID) AND status = 'reserved')
                ))
            )
            """
        )
        try await connection.rows("DELETE FROM credentials WHERE user_id = \(userID) AND status = 'reserved'")
        try await connection.rows(
            """
            UPDATE recovery_attempts SET status = 'cancelled', updated_at = \(time)
            WHERE user_id = \(userID) AND status IN ('pending', 'exchanged')
            """
        )
        try await connection.rows(
            """
            UPDATE refresh_token_families SET revoked_at = \(time), revocation = 'reset'
            WHERE user_id = \(userID) AND revoked_at IS NULL
            """
        )
        return true
    }
}
