import PasskeyStorage

extension Migrations {
    /// Console passkeys: a credential opens the operator console only when it was enrolled for it there
    /// (`console_enrolled`); every credential stored before is not, so an operator enrols theirs again through the
    /// console. The console's sessions signed in with an API key are listed along their own index.
    static let consolePasskeys = Migration(
        version: 11,
        name: "console passkeys",
        statements: [
            "ALTER TABLE credentials ADD COLUMN console_enrolled boolean NOT NULL DEFAULT false",
            "CREATE INDEX web_sessions_break_glass ON web_sessions (created_at) WHERE user_id IS NULL",
        ]
    )
}
