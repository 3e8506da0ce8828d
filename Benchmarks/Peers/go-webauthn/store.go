package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// The tables are a subset of swift-passkeys' SQLite schema, with the same columns where the subset uses them:
// users with a random user handle, credentials, ceremonies as rows of `flows` (the client token, the challenge and the
// result token kept only as their SHA-256), and an append-only audit log.
const schema = `
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY NOT NULL,
    handle BLOB NOT NULL UNIQUE,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_at REAL NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS credentials (
    id BLOB PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    public_key BLOB NOT NULL,
    algorithm INTEGER NOT NULL,
    sign_count INTEGER NOT NULL,
    aaguid TEXT NOT NULL,
    attestation_format TEXT NOT NULL,
    transports TEXT NOT NULL,
    backup_eligible INTEGER NOT NULL,
    backup_state INTEGER NOT NULL,
    user_verified INTEGER NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
    flow_id TEXT,
    created_at REAL NOT NULL,
    last_used_at REAL
) STRICT;

CREATE INDEX IF NOT EXISTS credentials_by_user ON credentials (user_id);

CREATE TABLE IF NOT EXISTS flows (
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
) STRICT;

CREATE INDEX IF NOT EXISTS flows_by_user ON flows (user_id);
CREATE INDEX IF NOT EXISTS flows_by_expiry ON flows (expires_at);

CREATE TABLE IF NOT EXISTS audit_events (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    time REAL NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    user_id TEXT,
    subject TEXT,
    request_id TEXT,
    details TEXT NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS audit_events_by_user ON audit_events (user_id, sequence);
`

type userRow struct {
	id          string
	handle      []byte
	name        string
	displayName string
}

type credentialRow struct {
	id                []byte
	userID            string
	publicKey         []byte
	algorithm         int64
	signCount         uint32
	aaguid            string
	attestationFormat string
	transports        string // a JSON array
	backupEligible    bool
	backupState       bool
	userVerified      bool
	name              string
	status            string
}

type flowRow struct {
	id              string
	kind            string
	status          string
	userID          string
	clientTokenHash []byte
	expiresAt       time.Time
	payload         []byte
}

type auditEvent struct {
	actor     string
	action    string
	userID    string
	subject   string
	requestID string
	details   string // a JSON object of strings
}

// store is the peer's persistence, on one SQLite file in WAL mode (see db.go for its connections).
type store struct {
	writer *writer
	reader *readers
	now    func() time.Time
}

// errConflict is a row that exists already (a credential id registered before).
var errConflict = errors.New("the row exists already")

// errNotRecorded rolls back a transaction whose conditional update found no row.
var errNotRecorded = errors.New("the row was not in the expected state")

func openStore(path, synchronous string) (*store, error) {
	options := url.Values{}
	options.Set("_journal_mode", "WAL")
	options.Set("_synchronous", synchronous)
	options.Set("_busy_timeout", "5000")
	options.Set("_foreign_keys", "on")
	source := "file:" + path + "?" + options.Encode()

	writer, err := openWriter(source)
	if err != nil {
		return nil, err
	}
	if err := writer.execScript(schema); err != nil {
		writer.close()
		return nil, fmt.Errorf("cannot make the schema in %s: %w", path, err)
	}
	reader, err := openReaders(source, 2*runtime.NumCPU())
	if err != nil {
		writer.close()
		return nil, err
	}
	return &store{writer: writer, reader: reader, now: time.Now}, nil
}

func (s *store) close() {
	s.reader.close()
	s.writer.close()
}

// seconds is how times are stored: seconds since 1970 as a REAL, as swift-passkeys stores them.
func seconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

func fromSeconds(value float64) time.Time { return time.Unix(0, int64(value*1e9)) }

func isUniqueViolation(err error) bool {
	var sqliteError sqlite3.Error
	if !errors.As(err, &sqliteError) {
		return false
	}
	return sqliteError.ExtendedCode == sqlite3.ErrConstraintPrimaryKey ||
		sqliteError.ExtendedCode == sqlite3.ErrConstraintUnique
}

func affected(result sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	count, err := result.RowsAffected()
	return count == 1, err
}

// MARK: users and credentials

// createUserIfAbsent stores the user unless one with its id exists, and returns the stored user either way.
func (s *store) createUserIfAbsent(user userRow) (userRow, error) {
	stored := userRow{id: user.id}
	err := s.writer.transaction(func(tx *writer) error {
		if _, err := tx.exec(`INSERT INTO users (id, handle, name, display_name, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING`, user.id, user.handle, user.name, user.displayName,
			seconds(s.now())); err != nil {
			return err
		}
		return tx.scan(`SELECT handle, name, display_name FROM users WHERE id = ?`, []any{user.id},
			&stored.handle, &stored.name, &stored.displayName)
	})
	return stored, err
}

func (s *store) user(id string) (userRow, bool, error) {
	user := userRow{id: id}
	err := s.reader.scan(`SELECT handle, name, display_name FROM users WHERE id = ?`, []any{id},
		&user.handle, &user.name, &user.displayName)
	if errors.Is(err, sql.ErrNoRows) {
		return userRow{}, false, nil
	}
	return user, err == nil, err
}

const credentialColumns = `c.id, c.user_id, c.public_key, c.algorithm, c.sign_count, c.aaguid, c.attestation_format,
    c.transports, c.backup_eligible, c.backup_state, c.user_verified, c.name, c.status`

// into is where a row of credentialColumns is scanned, followed by extra.
func (c *credentialRow) into(extra ...any) []any {
	return append([]any{&c.id, &c.userID, &c.publicKey, &c.algorithm, &c.signCount, &c.aaguid,
		&c.attestationFormat, &c.transports, &c.backupEligible, &c.backupState, &c.userVerified, &c.name,
		&c.status}, extra...)
}

// activeCredentials lists the user's active passkeys.
func (s *store) activeCredentials(userID string) ([]credentialRow, error) {
	rows, err := s.reader.query(`SELECT `+credentialColumns+` FROM credentials c
        WHERE c.user_id = ? AND c.status = 'active' ORDER BY c.created_at`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []credentialRow
	for rows.Next() {
		var c credentialRow
		if err := rows.Scan(c.into()...); err != nil {
			return nil, err
		}
		found = append(found, c)
	}
	return found, rows.Err()
}

// credentialWithOwner is the credential with this id and its owner's user handle.
func (s *store) credentialWithOwner(id []byte) (credentialRow, []byte, bool, error) {
	var c credentialRow
	var handle []byte
	err := s.reader.scan(`SELECT `+credentialColumns+`, u.handle FROM credentials c
        JOIN users u ON u.id = c.user_id WHERE c.id = ?`, []any{id}, c.into(&handle)...)
	if errors.Is(err, sql.ErrNoRows) {
		return credentialRow{}, nil, false, nil
	}
	return c, handle, err == nil, err
}

func (s *store) credentialStatus(id []byte) (string, error) {
	var status string
	err := s.reader.scan(`SELECT status FROM credentials WHERE id = ?`, []any{id}, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return status, err
}

// MARK: flows

func (s *store) createFlow(flow flowRow) error {
	now := seconds(s.now())
	_, err := s.writer.execLocked(`INSERT INTO flows (id, kind, status, user_id, client_token_hash, expires_at,
        created_at, updated_at, payload) VALUES (?, ?, 'created', ?, ?, ?, ?, ?, ?)`,
		flow.id, flow.kind, flow.userID, flow.clientTokenHash, seconds(flow.expiresAt), now, now, flow.payload)
	return err
}

func (s *store) flow(id string) (flowRow, bool, error) {
	flow := flowRow{id: id}
	var expires float64
	var userID sql.NullString
	err := s.reader.scan(`SELECT kind, status, user_id, client_token_hash, expires_at, payload FROM flows
        WHERE id = ?`, []any{id}, &flow.kind, &flow.status, &userID, &flow.clientTokenHash, &expires, &flow.payload)
	if errors.Is(err, sql.ErrNoRows) {
		return flowRow{}, false, nil
	}
	flow.userID = userID.String
	flow.expiresAt = fromSeconds(expires)
	return flow, err == nil, err
}

// issueChallenge records a new challenge for the flow while it has not completed; false when it has.
func (s *store) issueChallenge(flowID string, challengeHash []byte, expiresAt time.Time) (bool, error) {
	return affected(s.writer.execLocked(`UPDATE flows SET status = 'options_issued', challenge_hash = ?,
        challenge_expires_at = ?, updated_at = ? WHERE id = ? AND status IN ('created', 'options_issued', 'failed')`,
		challengeHash, seconds(expiresAt), seconds(s.now()), flowID))
}

// consumeChallenge spends the flow's challenge if it is this one and has not expired: of any number of concurrent
// completions, one gets true.
func (s *store) consumeChallenge(flowID string, challengeHash []byte) (bool, error) {
	now := seconds(s.now())
	return affected(s.writer.execLocked(`UPDATE flows SET status = 'verifying', challenge_hash = NULL, updated_at = ?
        WHERE id = ? AND status = 'options_issued' AND challenge_hash = ? AND challenge_expires_at > ?`,
		now, flowID, challengeHash, now))
}

// markFailed lets the client ask for new options after a response that did not verify.
func (s *store) markFailed(flowID string) error {
	_, err := s.writer.execLocked(`UPDATE flows SET status = 'failed', updated_at = ?
        WHERE id = ? AND status = 'verifying'`, seconds(s.now()), flowID)
	return err
}

// insertCredential stores a registered credential and completes its flow, in one transaction; errConflict when
// the credential id is registered already.
func (s *store) insertCredential(c credentialRow, flowID string, payload []byte) error {
	now := seconds(s.now())
	return s.writer.transaction(func(tx *writer) error {
		_, err := tx.exec(`INSERT INTO credentials (id, user_id, public_key, algorithm, sign_count, aaguid,
            attestation_format, transports, backup_eligible, backup_state, user_verified, name, status, flow_id,
            created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
			c.id, c.userID, c.publicKey, c.algorithm, c.signCount, c.aaguid, c.attestationFormat, c.transports,
			c.backupEligible, c.backupState, c.userVerified, c.name, flowID, now)
		if isUniqueViolation(err) {
			return errConflict
		}
		if err != nil {
			return err
		}
		completed, err := affected(tx.exec(`UPDATE flows SET status = 'completed', payload = ?, updated_at = ?
            WHERE id = ? AND status = 'verifying'`, payload, now, flowID))
		if err == nil && !completed {
			err = errNotRecorded
		}
		return err
	})
}

// recordAuthentication stores the credential's new counter and backup state and completes the flow with its result,
// in one transaction; errNotRecorded when the credential was revoked or used by another sign-in since it was read.
func (s *store) recordAuthentication(c credentialRow, newCount uint32, backupState bool, flowID string,
	resultTokenHash []byte, resultExpiresAt time.Time, payload []byte) error {
	now := seconds(s.now())
	return s.writer.transaction(func(tx *writer) error {
		recorded, err := affected(tx.exec(`UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ?
            WHERE id = ? AND status = 'active' AND sign_count = ?`, newCount, backupState, now, c.id, c.signCount))
		if err != nil {
			return err
		}
		if !recorded {
			return errNotRecorded
		}
		completed, err := affected(tx.exec(`UPDATE flows SET status = 'completed', result_token_hash = ?,
            result_expires_at = ?, payload = ?, updated_at = ? WHERE id = ? AND status = 'verifying'`,
			resultTokenHash, seconds(resultExpiresAt), payload, now, flowID))
		if err == nil && !completed {
			err = errNotRecorded
		}
		return err
	})
}

// redeem spends the result token of a completed sign-in, once, and returns the result stored with it.
func (s *store) redeem(flowID string, resultTokenHash []byte) ([]byte, bool, error) {
	now := seconds(s.now())
	var payload []byte
	err := s.writer.scanLocked(`UPDATE flows SET status = 'redeemed', result_token_hash = NULL, updated_at = ?
        WHERE id = ? AND kind = 'authentication' AND status = 'completed' AND result_token_hash = ?
        AND result_expires_at > ? RETURNING payload`, []any{now, flowID, resultTokenHash, now}, &payload)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return payload, err == nil, err
}

// MARK: audit

func (s *store) appendAudit(event auditEvent) error {
	_, err := s.writer.execLocked(`INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
        VALUES (?, ?, ?, ?, ?, ?, ?)`, seconds(s.now()), event.actor, event.action, nullable(event.userID),
		nullable(event.subject), event.requestID, event.details)
	return err
}

func nullable(text string) any {
	if text == "" {
		return nil
	}
	return text
}
