import PasskeyServer
import Testing

@Suite("Database URL in messages")
struct DatabaseDisplayTests {
    @Test(
        "the password never appears where the database URL is shown",
        arguments: [
            (
                "postgres://passkeys:s3cret@db.internal:5432/passkeys?sslmode=require",
                "postgres://passkeys:***@db.internal:5432/passkeys?sslmode=require"
            ),
            ("sqlite:passkeys.sqlite", "sqlite:passkeys.sqlite"),
            ("memory", "memory"),
        ]
    )
    func redacted(_ url: String, _ shown: String) throws {
        var configuration = ServerConfiguration()
        configuration.database = try ServerConfiguration.Database(url)
        #expect(configuration.databaseForDisplay == shown)
        #expect(!configuration.databaseForDisplay.contains("s3cret"))
    }
}
