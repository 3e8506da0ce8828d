import PasskeyStorage

extension Migrations {
    /// A recovery attempt records who started it — the backend or an operator in the console — because only the
    /// console's attempts may be finalized from the recovery page. Attempts written before were all started through
    /// the same service method, so they are taken as the backend's: the stricter reading.
    static let recoveryStarter = Migration(
        version: 10,
        name: "recovery starter",
        statements: [
            "ALTER TABLE recovery_attempts ADD COLUMN started_by text NOT NULL DEFAULT 'backend'"
        ]
    )
}
