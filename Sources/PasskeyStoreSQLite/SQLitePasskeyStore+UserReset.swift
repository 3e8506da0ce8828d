import Foundation
import PasskeyStorage

extension SQLitePasskeyStore {
    /// Ends every flow of the user that is in flight, inside the caller's transaction, as a reset of the user does
    /// (see `PasskeyStore`): their handoffs are rejected; their flows in flight, their unredeemed sign-ins and their
    /// registrations holding a reservation are aborted, their challenges cleared; the reservations are released; and
    /// their open recovery attempts are cancelled; and their refresh-token families are revoked. The one place this
    /// store does it; every reset calls it.
    static func endFlowsInFlight(_ db: Database, userID: String, at time: Date) throws {
        let user = Bind.text(userID)
        let now = Bind.date(time)
        try db.execute(
            """
            UPDATE cross_platform_sessions SET status = 'rejected', updated_at = ?2
            WHERE status IN (\(quoted(CrossPlatformSessionRecord.Status.inFlight.map(\.rawValue))))
                AND flow_id IN (SELECT id FROM flows WHERE user_id = ?1)
            """,
            [user, now]
        )
        try db.execute(
            """
            UPDATE flows SET status = 'aborted', challenge_hash = NULL, challenge_expires_at = NULL, updated_at = ?2
            WHERE user_id = ?1 AND (
                status IN (\(quoted(FlowStatus.inFlight.map(\.rawValue))))
                OR (status = 'completed' AND (
                    kind = 'authentication'
                    OR id IN (SELECT flow_id FROM credentials WHERE user_id = ?1 AND status = 'reserved')
                ))
            )
            """,
            [user, now]
        )
        try db.execute("DELETE FROM credentials WHERE user_id = ?1 AND status = 'reserved'", [user])
        try db.execute(
            """
            UPDATE recovery_attempts SET status = 'cancelled', updated_at = ?2
            WHERE user_id = ?1 AND status IN ('pending', 'exchanged')
            """,
            [user, now]
        )
        try db.execute(
            """
            UPDATE refresh_token_families SET revoked_at = ?2, revocation = 'reset'
            WHERE user_id = ?1 AND revoked_at IS NULL
            """,
            [user, now]
        )
    }

    /// `'a', 'b'`: constant names (never input) as a SQL list.
    private static func quoted(_ names: [String]) -> String {
        names.sorted().map { "'\($0)'" }.joined(separator: ", ")
    }
}
