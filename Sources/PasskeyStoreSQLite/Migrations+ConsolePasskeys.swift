import PasskeyStorage

extension Migrations {
    /// Console passkeys: a credential opens the operator console only when it was enrolled for it there
    /// (`console_enrolled`); every credential stored before is not, so an operator enrols theirs again through the
    /// console. The console's sessions signed in with an API key are listed along their own index.
    static let consolePasskeys = Migration(
        version: 10,
        name: "console passkeys",
        script: """
            ALTER TABLE credentials ADD COLUMN console_enrolled INTEGER NOT NULL DEFAULT 0
                CHECK (console_enrolled IN (0, 1));

            CREATE INDEX web_sessions_break_glass ON web_sessions (created_at) WHERE user_id IS NULL;
            """
    )
}
