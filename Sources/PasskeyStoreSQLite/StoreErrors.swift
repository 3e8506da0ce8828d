import PasskeyStorage
import VaporCSQLite

/// Turns SQLite's errors into the contract's ``StoreError`` codes, with a reason that says what to check.
enum StoreErrors {
    static func map(_ error: any Error, path: String, doing operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteFailure else {
            return StoreError(.unavailable, "The SQLite database at \(path) failed to \(operation): \(error).")
        }
        let detail = error.description
        switch category(of: error) {
        case .constraint:
            return constraint(error.message)
        case .busy:
            return StoreError(
                .unavailable,
                "The SQLite database at \(path) stayed locked by another connection for longer than the busy timeout: "
                    + "check for a process holding a long transaction on it (a backup, an open sqlite3 shell). \(detail)"
            )
        case .access:
            return StoreError(
                .unavailable,
                "Could not \(operation) the SQLite database at \(path): check that its directory exists and that this "
                    + "process may write the file and create files beside it (\(path)-wal, \(path)-shm). \(detail)"
            )
        case .full:
            return StoreError(.unavailable, "The disk or file system holding \(path) is full: free space. \(detail)")
        case .io:
            return StoreError(
                .unavailable,
                "An I/O error occurred on the SQLite database at \(path): check the disk and the file system. \(detail)"
            )
        case .damaged:
            return StoreError(
                .corrupt,
                "The file at \(path) is not an SQLite database or is damaged: restore it from a backup. \(detail)"
            )
        case .other:
            return StoreError(.unavailable, "The SQLite database at \(path) failed to \(operation): \(detail)")
        }
    }

    /// Constraint violations the store's own checks did not catch first, by SQLite's message, which names the
    /// columns (`UNIQUE constraint failed: users.handle`).
    private static func constraint(_ message: String) -> StoreError {
        if message.contains("FOREIGN KEY") {
            return StoreError(.notFound, "The user the record belongs to does not exist.")
        }
        if message.contains("credentials.user_id, credentials.name_key") {
            return StoreError(.nameTaken, "Another credential of this user has this name.")
        }
        if message.contains("credentials.id") {
            return StoreError(.credentialExists, "This credential is registered already.")
        }
        if message.contains("web_sessions.secret_hash") {
            return StoreError(.duplicate, "A web session with this secret exists.")
        }
        if message.contains("web_sessions.id") {
            return StoreError(.duplicate, "A web session with this id exists.")
        }
        if message.contains("workflow_runs.flow_id") {
            return StoreError(.duplicate, "The flow has an identity-verification run already.")
        }
        if message.contains("workflow_runs.id") {
            return StoreError(.duplicate, "An identity-verification run with this id exists.")
        }
        if message.contains("users.handle") {
            return StoreError(.duplicate, "Another user has this user handle.")
        }
        if message.contains("UNIQUE") || message.contains("PRIMARY KEY") {
            return StoreError(.duplicate, "A record with this id exists already (\(message)).")
        }
        return StoreError(.unavailable, "The database refused a write: \(message).")
    }

    private enum Category {
        case constraint, busy, access, full, io, damaged, other
    }

    private static func category(of failure: SQLiteFailure) -> Category {
        // Damaged data that SQLite reports as an I/O error: its checksum or the file system found it.
        // (SQLITE_IOERR_DATA and SQLITE_IOERR_CORRUPTFS, whose macros Swift does not import)
        if failure.code == SQLITE_IOERR | (32 << 8) || failure.code == SQLITE_IOERR | (33 << 8) { return .damaged }
        switch failure.primaryCode {
        case SQLITE_CONSTRAINT: return .constraint
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_AUTH: return .access
        case SQLITE_FULL: return .full
        case SQLITE_IOERR, SQLITE_NOLFS: return .io
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .damaged
        default: return .other
        }
    }
}
