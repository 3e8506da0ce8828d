import PasskeyStorage

/// A migration of this adapter: the shared shape, its statements written as one script.
typealias Migration = SchemaMigration

extension SchemaMigration {
    /// A migration whose statements are `script` split at the semicolons that end them (outside quotes and
    /// comments).
    init(version: Int, name: String, script: String) {
        self.init(version: version, name: name, statements: SQLScript.statements(in: script))
    }
}

/// The schema, in order. The last version is ``SQLitePasskeyStore/schemaVersion``. A new migration takes the next
/// version in both SQL adapters, from the catalogue `SchemaChanges` (read it first), in a file of its own
/// (`Migrations+Change.swift`, named as PostgreSQL's), and never changes once released.
///
/// Dates are REAL seconds since 1970 (whole seconds round-trip exactly; sub-second precision is better
/// than a microsecond). Byte strings are BLOBs, booleans INTEGER 0 or 1, lists and maps JSON text.
/// Tables are STRICT, so a column never holds a value of another type.
enum Migrations {
    static let all: [Migration] = [
        initialSchema, limitWindows, webSessions, workflowRuns, purging, crossPlatformSessions, recoveryAttempts,
        uniqueUserNames, recoveryStarter, consolePasskeys, versionAlignment, purgedRegistrations, idempotencyKeys,
        auditChain, webhookOutbox, tokenSessions, usersByName,
    ]

    static let initialSchema = Migration(
        version: 1,
        name: "initial schema",
        script: """
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                handle BLOB NOT NULL UNIQUE,
                name TEXT NOT NULL,
                display_name TEXT NOT NULL,
                created_at REAL NOT NULL
            ) STRICT;

            CREATE TABLE credentials (
                id BLOB PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                public_key BLOB NOT NULL,
                algorithm INTEGER NOT NULL,
                sign_count INTEGER NOT NULL,
                aaguid TEXT NOT NULL,
                attestation_format TEXT NOT NULL,
                attestation_type TEXT NOT NULL,
                attestation_trusted INTEGER NOT NULL,
                -- JSON array of strings
                transports TEXT NOT NULL,
                backup_eligible INTEGER NOT NULL,
                backup_state INTEGER NOT NULL,
                user_verified INTEGER NOT NULL,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('active', 'reserved', 'revoked')),
                reserved_until REAL,
                -- the registering flow; no foreign key: credentials outlive their flows
                flow_id TEXT,
                created_at REAL NOT NULL,
                last_used_at REAL,
                revoked_at REAL
            ) STRICT;

            CREATE INDEX credentials_by_user ON credentials (user_id, created_at);
            -- Name keys are unique among a user's active credentials. A reservation is live only until its
            -- reserved_until, which depends on the caller's time: the store checks reservations in the
            -- inserting transaction.
            CREATE UNIQUE INDEX credentials_active_name ON credentials (user_id, name_key) WHERE status = 'active';
            CREATE INDEX credentials_reserved_by_flow ON credentials (flow_id) WHERE status = 'reserved';

            CREATE TABLE flows (
                id TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL,
                user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
                client_token_hash BLOB NOT NULL,
                challenge_hash BLOB,
                challenge_expires_at REAL,
                result_token_hash BLOB,
                result_expires_at REAL,
                expires_at REAL NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                -- the flow's own JSON state, as its owner encoded it
                payload BLOB NOT NULL
            ) STRICT;

            CREATE INDEX flows_by_user ON flows (user_id);
            CREATE INDEX flows_by_expiry ON flows (expires_at);

            CREATE TABLE audit_events (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                time REAL NOT NULL,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                -- no foreign key: the log outlives the users it mentions
                user_id TEXT,
                subject TEXT,
                request_id TEXT,
                -- JSON object of strings
                details TEXT NOT NULL
            ) STRICT;

            CREATE INDEX audit_events_by_user ON audit_events (user_id, sequence);
            """
    )

    static let limitWindows = Migration(
        version: 2,
        name: "limit windows",
        script: """
            -- The failure limits' counters, shared by every process on the file: one fixed window per key, the key
            -- only as its SHA-256 (it names a client address or a credential).
            CREATE TABLE limit_windows (
                key_hash BLOB PRIMARY KEY NOT NULL,
                window_start REAL NOT NULL,
                window_end REAL NOT NULL,
                count INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;

            -- Counting finds the windows that ended long ago along this index, to delete them.
            CREATE INDEX limit_windows_by_end ON limit_windows (window_end);
            """
    )

    static let webSessions = Migration(
        version: 3,
        name: "web sessions",
        script: """
            -- The signed-in sessions of the web pages: the cookie's secret only as its SHA-256. A session goes with its
            -- user; it names the passkey it was signed in with, without a foreign key (the credential may be revoked
            -- and the session ended separately).
            CREATE TABLE web_sessions (
                id TEXT PRIMARY KEY NOT NULL,
                secret_hash BLOB NOT NULL,
                kind TEXT NOT NULL,
                user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
                operator_name TEXT,
                credential_id BLOB,
                client_ip TEXT,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT;

            CREATE UNIQUE INDEX web_sessions_by_secret ON web_sessions (secret_hash);
            CREATE INDEX web_sessions_by_user ON web_sessions (user_id, created_at);
            -- Creating a session finds the ones that expired along this index, to delete them.
            CREATE INDEX web_sessions_by_expiry ON web_sessions (expires_at);
            """
    )

    static let workflowRuns = Migration(
        version: 4,
        name: "identity-verification runs",
        script: """
            -- One identity-verification run per flow, decided by the provider. A run goes with its user; it names
            -- its flow without a foreign key (runs outlive their flows). Purpose, status and face match are the
            -- names of WorkflowRunRecord's cases, which the store checks when it reads them.
            CREATE TABLE workflow_runs (
                id TEXT PRIMARY KEY NOT NULL,
                purpose TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                flow_id TEXT NOT NULL,
                status TEXT NOT NULL,
                face_match TEXT,
                vendor_reference TEXT,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT;

            CREATE UNIQUE INDEX workflow_runs_by_flow ON workflow_runs (flow_id);
            CREATE INDEX workflow_runs_by_user ON workflow_runs (user_id);

            -- The run a credential was created after; no foreign key, as for flow_id. Existing rows read NULL.
            ALTER TABLE credentials ADD COLUMN workflow_run_id TEXT;
            """
    )

    static let purging = Migration(
        version: 5,
        name: "purging",
        script: """
            -- Purging deletes the audit events and the identity-verification runs older than the retention along these
            -- indexes, oldest first, instead of reading every row of tables that are kept for months.
            CREATE INDEX audit_events_by_time ON audit_events (time);
            CREATE INDEX workflow_runs_by_expiry ON workflow_runs (expires_at);
            """
    )

    static let crossPlatformSessions = Migration(
        version: 6,
        name: "cross-platform sessions",
        script: """
            -- One handoff per authentication flow, which it goes with. Tokens are SHA-256 hashes; status is the name of
            -- a CrossPlatformSessionRecord.Status case, which the store checks when it reads it.
            CREATE TABLE cross_platform_sessions (
                id TEXT PRIMARY KEY NOT NULL,
                flow_id TEXT NOT NULL UNIQUE REFERENCES flows (id) ON DELETE CASCADE,
                handoff_token_hash BLOB NOT NULL UNIQUE,
                poll_token_hash BLOB NOT NULL,
                client_token_hash BLOB,
                verification_code TEXT NOT NULL,
                status TEXT NOT NULL,
                code_failures INTEGER NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                handoff_expires_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT;
            """
    )

    static let recoveryAttempts = Migration(
        version: 7,
        name: "recovery attempts",
        script: """
            -- Account recoveries on a new device: the recovery token only as its SHA-256. An attempt goes with its
            -- user; it names its replacement registration's flow without a foreign key (attempts outlive flows).
            -- Status is the name of a RecoveryAttemptRecord.Status case, which the store checks when it reads it.
            CREATE TABLE recovery_attempts (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                token_hash BLOB NOT NULL,
                status TEXT NOT NULL,
                registration_flow_id TEXT,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT;

            CREATE INDEX recovery_attempts_by_user ON recovery_attempts (user_id);
            -- Purging deletes the attempts older than the audit retention along this index.
            CREATE INDEX recovery_attempts_by_expiry ON recovery_attempts (expires_at);
            """
    )
}

/// Splits SQL scripts into statements, as SQLite prepares one statement at a time.
enum SQLScript {
    /// The statements of `script`: split at each `;` that is not inside a quoted string, a quoted
    /// identifier or a comment; comments and blank statements are dropped. Scripts here use no triggers
    /// (whose bodies contain semicolons).
    static func statements(in script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        var inLineComment = false
        var previous: Character?
        for character in script {
            if inLineComment {
                if character == "\n" {
                    inLineComment = false
                    current.append(character)
                }
                previous = character
                continue
            }
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "-" && previous == "-" {
                current.removeLast()
                inLineComment = true
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
                current.append(character)
            } else if character == ";" {
                statements.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        statements.append(current)
        return statements.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
