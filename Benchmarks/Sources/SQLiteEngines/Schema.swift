/// The tables a sign-in touches, in the shape of the store's migrations, and the SQL its operations run.
enum SQL {
    static let schema = [
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            handle BLOB NOT NULL UNIQUE,
            name TEXT NOT NULL,
            display_name TEXT NOT NULL,
            created_at REAL NOT NULL
        ) STRICT
        """,
        """
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
            transports TEXT NOT NULL,
            backup_eligible INTEGER NOT NULL,
            backup_state INTEGER NOT NULL,
            user_verified INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'reserved', 'revoked')),
            reserved_until REAL,
            flow_id TEXT,
            created_at REAL NOT NULL,
            last_used_at REAL,
            revoked_at REAL,
            workflow_run_id TEXT
        ) STRICT
        """,
        "CREATE INDEX credentials_by_user ON credentials (user_id, created_at)",
        "CREATE UNIQUE INDEX credentials_active_name ON credentials (user_id, name_key) WHERE status = 'active'",
        "CREATE INDEX credentials_reserved_by_flow ON credentials (flow_id) WHERE status = 'reserved'",
        """
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
            payload BLOB NOT NULL
        ) STRICT
        """,
        "CREATE INDEX flows_by_user ON flows (user_id)",
        "CREATE INDEX flows_by_expiry ON flows (expires_at)",
        """
        CREATE TABLE audit_events (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            time REAL NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            user_id TEXT,
            subject TEXT,
            request_id TEXT,
            details TEXT NOT NULL
        ) STRICT
        """,
        "CREATE INDEX audit_events_by_user ON audit_events (user_id, sequence)",
        "CREATE INDEX audit_events_by_time ON audit_events (time)",
    ]

    /// `users` users named `user-00000000`…, each with one active credential whose id is 32 random bytes.
    static func seed(users: Int) -> [String] {
        let numbers = "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < \(users))"
        return [
            """
            \(numbers) INSERT INTO users (\(userColumns))
            SELECT printf('user-%08d', i), randomblob(32), printf('user%d@example.com', i), printf('User %d', i),
                1700000000.0 FROM n
            """,
            """
            \(numbers) INSERT INTO credentials (\(credentialColumns))
            SELECT randomblob(32), printf('user-%08d', i), randomblob(77), -7, 0,
                'fbfc3007-154e-4ecc-8c0b-6e020557d7bd', 'none', 'none', 0, '["hybrid","internal"]', 1, 1, 1,
                'Passkey', 'passkey', 'active', NULL, NULL, 1700000000.0, NULL, NULL, NULL FROM n
            """,
        ]
    }

    /// Redeemed flows, counted credential uses, audit events.
    static let totals = """
        SELECT (SELECT count(*) FROM flows WHERE status = 'redeemed'), (SELECT sum(sign_count) FROM credentials),
            (SELECT count(*) FROM audit_events)
        """
    /// The library's version, the compile options that matter here, and the connection's settings.
    static let library = """
        SELECT sqlite_version() || ' (' || coalesce((SELECT group_concat(compile_options, ', ')
        FROM pragma_compile_options WHERE compile_options GLOB 'THREADSAFE*'
        OR compile_options GLOB 'DEFAULT_MEMSTATUS*' OR compile_options GLOB 'SECURE_DELETE*'
        OR compile_options GLOB 'DEFAULT_WAL_SYNCHRONOUS*'), '') || '); journal_mode '
        || (SELECT journal_mode FROM pragma_journal_mode) || ', synchronous '
        || (SELECT synchronous FROM pragma_synchronous) || ', foreign_keys '
        || (SELECT foreign_keys FROM pragma_foreign_keys)
        """

    static let userColumns = "id, handle, name, display_name, created_at"
    static let credentialColumns = """
        id, user_id, public_key, algorithm, sign_count, aaguid, attestation_format, attestation_type, \
        attestation_trusted, transports, backup_eligible, backup_state, user_verified, name, name_key, status, \
        reserved_until, flow_id, created_at, last_used_at, revoked_at, workflow_run_id
        """
    static let flowColumns = """
        id, kind, status, user_id, client_token_hash, challenge_hash, challenge_expires_at, result_token_hash, \
        result_expires_at, expires_at, created_at, updated_at, payload
        """

    // The statements of the store's operations, as the SQLite adapter writes them.
    static let userByID = "SELECT \(userColumns) FROM users WHERE id = ?"
    static let credentialByID = "SELECT \(credentialColumns) FROM credentials WHERE id = ?"
    static let credentialsByUser = """
        SELECT \(credentialColumns) FROM credentials WHERE user_id = ? AND status != 'revoked'
        ORDER BY created_at, id
        """
    static let insertFlow = "INSERT INTO flows (\(flowColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let flowByID = "SELECT \(flowColumns) FROM flows WHERE id = ?"
    /// The conditional update of one flow, for one expected status.
    static let updateFlow = """
        UPDATE flows SET
            status = coalesce(?1, status),
            challenge_hash = CASE WHEN ?2 IS NOT NULL THEN ?2 WHEN ?3 THEN NULL ELSE challenge_hash END,
            challenge_expires_at = CASE WHEN ?4 IS NOT NULL THEN ?4 WHEN ?3 THEN NULL ELSE challenge_expires_at END,
            result_token_hash = coalesce(?5, result_token_hash),
            result_expires_at = coalesce(?6, result_expires_at),
            payload = coalesce(?7, payload),
            updated_at = ?8
        WHERE id = ?9 AND expires_at > ?8 AND status IN (?10)
        RETURNING \(flowColumns)
        """
    static let writeFlow = """
        UPDATE flows SET status = ?, challenge_hash = ?, challenge_expires_at = ?, result_token_hash = ?,
        result_expires_at = ?, payload = ?, updated_at = ? WHERE id = ?
        """
    static let recordCredentialUse =
        "UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ? WHERE id = ?"
    static let insertAuditEvent = """
        INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
        VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING sequence
        """
}
