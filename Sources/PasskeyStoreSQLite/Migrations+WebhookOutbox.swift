import PasskeyStorage

extension Migrations {
    /// The webhook outbox: one row per event and endpoint, written with its audit event. Pending rows are claimed
    /// along the index of when they are due; the console lists an endpoint's rows newest first.
    static let webhookOutbox = Migration(
        version: 15,
        name: "webhook outbox",
        script: """
            CREATE TABLE webhook_deliveries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                message_id TEXT NOT NULL,
                endpoint TEXT NOT NULL,
                event_type TEXT NOT NULL,
                -- the JSON body exactly as it is signed and sent
                payload TEXT NOT NULL,
                created_at REAL NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
                attempts INTEGER NOT NULL,
                next_attempt_at REAL,
                last_attempt_at REAL,
                last_answer INTEGER,
                last_error TEXT,
                UNIQUE (message_id, endpoint)
            ) STRICT;

            CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
            CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint, id);
            -- Purging deletes the finished rows older than the audit retention along this index.
            CREATE INDEX webhook_deliveries_by_creation ON webhook_deliveries (created_at);
            """
    )
}
