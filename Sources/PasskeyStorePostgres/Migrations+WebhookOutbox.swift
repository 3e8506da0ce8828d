import PasskeyStorage

extension Migrations {
    /// The webhook outbox: one row per event and endpoint, written with its audit event. Servers claim pending rows
    /// along the index of when they are due (`FOR UPDATE SKIP LOCKED`); the console lists an endpoint's rows newest
    /// first.
    static let webhookOutbox = Migration(
        version: 15,
        name: "webhook outbox",
        statements: [
            """
            CREATE TABLE webhook_deliveries (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                message_id text NOT NULL,
                endpoint text NOT NULL,
                event_type text NOT NULL,
                payload text NOT NULL,
                created_at timestamptz NOT NULL,
                status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
                attempts integer NOT NULL,
                next_attempt_at timestamptz,
                last_attempt_at timestamptz,
                last_answer integer,
                last_error text,
                UNIQUE (message_id, endpoint)
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'",
            "CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint, id)",
            "CREATE INDEX webhook_deliveries_by_creation ON webhook_deliveries (created_at)",
        ]
    )
}
