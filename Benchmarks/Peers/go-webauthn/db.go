package main

import (
	"context"
	"database/sql"
	"sync"
)

// Connections. SQLite lets one connection write at a time: every write goes through a single connection held by
// `writer` (waiting on a mutex in Go is cheaper than SQLite's busy handler, which sleeps), reads through a small pool
// of other connections, which WAL lets run beside the writer. Statements are prepared once per connection and kept.

// writer is the one connection that writes, with its prepared statements.
type writer struct {
	mu         sync.Mutex
	db         *sql.DB
	conn       *sql.Conn
	statements map[string]*sql.Stmt
}

func openWriter(source string) (*writer, error) {
	db, err := sql.Open("sqlite3", source)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	return &writer{db: db, conn: conn, statements: map[string]*sql.Stmt{}}, nil
}

func (w *writer) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, statement := range w.statements {
		statement.Close()
	}
	w.conn.Close()
	w.db.Close()
}

func (w *writer) execScript(script string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.conn.ExecContext(context.Background(), script)
	return err
}

// statement is the query prepared on the writer's connection; the caller holds mu.
func (w *writer) statement(query string) (*sql.Stmt, error) {
	if found, ok := w.statements[query]; ok {
		return found, nil
	}
	prepared, err := w.conn.PrepareContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	w.statements[query] = prepared
	return prepared, nil
}

// exec runs one statement; the caller holds mu (inside transaction) or calls execLocked.
func (w *writer) exec(query string, args ...any) (sql.Result, error) {
	statement, err := w.statement(query)
	if err != nil {
		return nil, err
	}
	return statement.Exec(args...)
}

// scan runs a query that returns at most one row and scans it (sql.ErrNoRows when none); the caller holds mu.
func (w *writer) scan(query string, args []any, into ...any) error {
	statement, err := w.statement(query)
	if err != nil {
		return err
	}
	return statement.QueryRow(args...).Scan(into...)
}

// execLocked is exec outside a transaction: one statement, its own implicit transaction.
func (w *writer) execLocked(query string, args ...any) (sql.Result, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.exec(query, args...)
}

func (w *writer) scanLocked(query string, args []any, into ...any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.scan(query, args, into...)
}

// transaction runs body between BEGIN IMMEDIATE and COMMIT on the writer's connection, rolling back when it fails.
func (w *writer) transaction(body func(tx *writer) error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	err := body(w)
	if err == nil {
		_, err = w.exec("COMMIT")
	}
	if err != nil {
		w.exec("ROLLBACK")
	}
	return err
}

// readers is the pool of connections that only read.
type readers struct {
	db         *sql.DB
	statements sync.Map // query text → *sql.Stmt, prepared on each connection as it is first used there
}

func openReaders(source string, count int) (*readers, error) {
	db, err := sql.Open("sqlite3", source)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(count)
	db.SetMaxIdleConns(count)
	return &readers{db: db}, nil
}

func (r *readers) close() {
	r.statements.Range(func(_, statement any) bool {
		statement.(*sql.Stmt).Close()
		return true
	})
	r.db.Close()
}

func (r *readers) statement(query string) (*sql.Stmt, error) {
	if found, ok := r.statements.Load(query); ok {
		return found.(*sql.Stmt), nil
	}
	prepared, err := r.db.Prepare(query)
	if err != nil {
		return nil, err
	}
	if found, loaded := r.statements.LoadOrStore(query, prepared); loaded {
		prepared.Close()
		return found.(*sql.Stmt), nil
	}
	return prepared, nil
}

func (r *readers) scan(query string, args []any, into ...any) error {
	statement, err := r.statement(query)
	if err != nil {
		return err
	}
	return statement.QueryRow(args...).Scan(into...)
}

func (r *readers) query(query string, args ...any) (*sql.Rows, error) {
	statement, err := r.statement(query)
	if err != nil {
		return nil, err
	}
	return statement.Query(args...)
}
