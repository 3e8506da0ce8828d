import PasskeyStorage
import PostgresNIO

/// A migration of this adapter: the shared shape.
typealias Migration = SchemaMigration

/// The schema, in order. The last version is ``PostgresPasskeyStore/schemaVersion``. A new migration takes the next
/// version in both SQL adapters, from the catalogue `SchemaChanges` (read it first), in a file of its own
/// (`Migrations+Change.swift`, named as SQLite's), and never changes once released.
enum Migrations {
    /// The key of the advisory lock that serialises migrations (`pg_advisory_xact_lock(lockClass, 0)`), and,
    /// with a table's oid as the second key, appends to the audit log. 0x70617373 is "pass" in ASCII.
    static let lockClass: Int32 = 0x7061_7373

    static let all: [Migration] = [
        initialSchema, usersInByteOrder, limitWindows, webSessions, workflowRuns, purging, crossPlatformSessions,
        recoveryAttempts, uniqueUserNames, recoveryStarter, consolePasskeys, purgedRegistrations, idempotencyKeys,
        auditChain, webhookOutbox, tokenSessions, usersByName,
    ]

    static let initialSchema = Migration(
        version: 1,
        name: "users, credentials, flows and the audit log",
        statements: [
            """
            CREATE TABLE users (
                id text PRIMARY KEY,
                handle bytea NOT NULL CONSTRAINT users_handle_key UNIQUE,
                name text NOT NULL,
                display_name text NOT NULL,
                created_at timestamptz NOT NULL
            )
            """,
            """
            CREATE TABLE credentials (
                id bytea PRIMARY KEY,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                public_key bytea NOT NULL,
                algorithm bigint NOT NULL,
                sign_count bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                aaguid text NOT NULL,
                attestation_format text NOT NULL,
                attestation_type text NOT NULL,
                attestation_trusted boolean NOT NULL,
                transports text[] NOT NULL,
                backup_eligible boolean NOT NULL,
                backup_state boolean NOT NULL,
                user_verified boolean NOT NULL,
                name text NOT NULL,
                name_key text NOT NULL,
                status text NOT NULL CHECK (status IN ('active', 'reserved', 'revoked')),
                reserved_until timestamptz,
                flow_id text,
                created_at timestamptz NOT NULL,
                last_used_at timestamptz,
                revoked_at timestamptz
            )
            """,
            // Active credentials are live whatever the time, so the database itself keeps their names unique.
            // A reserved credential is live only until its reservation expires, which depends on the time an
            // operation is given: the store checks those names itself, under the user's row lock.
            "CREATE UNIQUE INDEX credentials_live_name ON credentials (user_id, name_key) WHERE status = 'active'",
            "CREATE INDEX credentials_user ON credentials (user_id, created_at)",
            "CREATE INDEX credentials_reserved_flow ON credentials (flow_id) WHERE status = 'reserved'",
            """
            CREATE TABLE flows (
                id text PRIMARY KEY,
                kind text NOT NULL,
                status text NOT NULL,
                user_id text,
                client_token_hash bytea NOT NULL,
                challenge_hash bytea,
                challenge_expires_at timestamptz,
                result_token_hash bytea,
                result_expires_at timestamptz,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                payload bytea NOT NULL
            )
            """,
            "CREATE INDEX flows_user ON flows (user_id)",
            "CREATE INDEX flows_expires_at ON flows (expires_at)",
            """
            CREATE TABLE audit_events (
                sequence bigserial PRIMARY KEY,
                time timestamptz NOT NULL,
                actor text NOT NULL,
                action text NOT NULL,
                user_id text,
                subject text,
                request_id text,
                details jsonb NOT NULL DEFAULT '{}'
            )
            """,
            "CREATE INDEX audit_events_user ON audit_events (user_id, sequence)",
        ]
    )

    static let usersInByteOrder = Migration(
        version: 2,
        name: "users in byte order of id, for listing them a page at a time",
        statements: [
            // Listing users orders and pages their ids in the "C" collation (byte order, as the other adapters
            // do). The primary key's index is in the database's default collation, which the planner cannot
            // use for that order unless the default is "C" itself.
            #"CREATE INDEX users_id_bytewise ON users (id COLLATE "C")"#
        ]
    )

    static let limitWindows = Migration(
        version: 3,
        name: "limit windows: the failure limits' counters, shared by every process",
        statements: [
            // One fixed window per key; the key only as its SHA-256 (it names a client address or a credential).
            """
            CREATE TABLE limit_windows (
                key_hash bytea PRIMARY KEY,
                window_start timestamptz NOT NULL,
                window_end timestamptz NOT NULL,
                count bigint NOT NULL
            )
            """,
            // Counting finds the windows that ended long ago along this index, to delete them.
            "CREATE INDEX limit_windows_end ON limit_windows (window_end)",
        ]
    )

    static let webSessions = Migration(
        version: 4,
        name: "web sessions: the signed-in sessions of the web pages",
        statements: [
            // The cookie's secret only as its SHA-256. A session goes with its user; it names the passkey it was
            // signed in with without a foreign key (the credential may be revoked and the session ended apart).
            """
            CREATE TABLE web_sessions (
                id text PRIMARY KEY,
                secret_hash bytea NOT NULL CONSTRAINT web_sessions_secret_hash_key UNIQUE,
                kind text NOT NULL,
                user_id text REFERENCES users (id) ON DELETE CASCADE,
                operator_name text,
                credential_id bytea,
                client_ip text,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX web_sessions_user ON web_sessions (user_id, created_at)",
            // Creating a session finds the ones that expired along this index, to delete them.
            "CREATE INDEX web_sessions_expires_at ON web_sessions (expires_at)",
        ]
    )

    static let workflowRuns = Migration(
        version: 5,
        name: "identity-verification runs, and the run a credential was created after",
        statements: [
            // One run per flow, decided by the provider. A run goes with its user; it names its flow without a
            // foreign key (runs outlive their flows). Purpose, status and face match are the names of
            // WorkflowRunRecord's cases, which the store checks when it reads them.
            """
            CREATE TABLE workflow_runs (
                id text PRIMARY KEY,
                purpose text NOT NULL,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                flow_id text NOT NULL CONSTRAINT workflow_runs_flow_key UNIQUE,
                status text NOT NULL,
                face_match text,
                vendor_reference text,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX workflow_runs_user ON workflow_runs (user_id)",
            // No foreign key, as for flow_id; existing rows read NULL. Adding a nullable column without a
            // default rewrites nothing.
            "ALTER TABLE credentials ADD COLUMN workflow_run_id text",
        ]
    )

    static let purging = Migration(
        version: 6,
        name: "purging: the audit events and identity-verification runs by age",
        statements: [
            // Purging deletes the audit events and the runs older than the retention along these indexes, oldest
            // first, instead of reading every row of tables that are kept for months.
            "CREATE INDEX audit_events_time ON audit_events (time)",
            "CREATE INDEX workflow_runs_expires_at ON workflow_runs (expires_at)",
        ]
    )

    static let crossPlatformSessions = Migration(
        version: 7,
        name: "cross-platform sessions",
        statements: [
            // One handoff per authentication flow, which it goes with. Tokens are SHA-256 hashes; status is the
            // name of a CrossPlatformSessionRecord.Status case, which the store checks when it reads it.
            """
            CREATE TABLE cross_platform_sessions (
                id text PRIMARY KEY,
                flow_id text NOT NULL CONSTRAINT cross_platform_sessions_flow_key UNIQUE
                    REFERENCES flows (id) ON DELETE CASCADE,
                handoff_token_hash bytea NOT NULL CONSTRAINT cross_platform_sessions_handoff_key UNIQUE,
                poll_token_hash bytea NOT NULL,
                client_token_hash bytea,
                verification_code text NOT NULL,
                status text NOT NULL,
                code_failures integer NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                handoff_expires_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """
        ]
    )

    static let recoveryAttempts = Migration(
        version: 8,
        name: "recovery attempts: account recovery on a new device",
        statements: [
            // The recovery token only as its SHA-256. An attempt goes with its user; it names its replacement
            // registration's flow without a foreign key (attempts outlive flows). Status is the name of a
            // RecoveryAttemptRecord.Status case, which the store checks when it reads it.
            """
            CREATE TABLE recovery_attempts (
                id text PRIMARY KEY,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                token_hash bytea NOT NULL,
                status text NOT NULL,
                registration_flow_id text,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX recovery_attempts_user ON recovery_attempts (user_id)",
            // Purging deletes the attempts older than the audit retention along this index.
            "CREATE INDEX recovery_attempts_expires_at ON recovery_attempts (expires_at)",
        ]
    )
}
