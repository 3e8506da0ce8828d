import PasskeyStorage
import SQLiteNIO

/// Turns SQLite's errors into the contract's ``StoreError`` codes, with a reason that says what to check.
enum StoreErrors {
    static func map(_ error: any Error, path: String, doing operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else {
            return StoreError(.unavailable, "The SQLite database at \(path) failed to \(operation): \(error).")
        }
        let detail = "\(error.message) (\(error.reason))"
        switch category(of: error.reason) {
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

    private static func category(of reason: SQLiteError.Reason) -> Category {
        switch reason {
        case .constraint, .constraintCheckFailed, .constraintCommitHookFailed, .constraintForeignKeyFailed,
            .constraintUserFunctionFailed, .constraintNotNullFailed, .constraintPrimaryKeyFailed,
            .constraintTriggerFailed, .constraintUniqueFailed, .constraintVirtualTableFailed,
            .constraintUniqueRowIDFailed, .constraintUpdateTriggerDeletedRow, .constraintStrictDataTypeFailed:
            .constraint
        case .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout, .locked, .lockedBySharedCache,
            .lockedVirtualTable:
            .busy
        case .permission, .readOnly, .readonlyInRecovery, .readonlyCantLock, .readonlyInRollback,
            .readonlyBackingMoved, .readonlyDirectory, .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath,
            .cantOpenCygwinPath, .cantOpenUnfollowedSymlink, .auth, .authUnauthorizedUser:
            .access
        case .full:
            .full
        case .ioError, .ioErrorFailedRead, .ioErrorIncompleteRead, .ioErrorFailedWrite, .ioErrorFailedSync,
            .ioErrorFailedDirSync, .ioErrorFailedTruncate, .ioErrorFailedStat, .ioErrorFailedUnlock,
            .ioErrorFailedReadLock, .ioErrorFailedDelete, .ioErrorNoMemory, .ioErrorFailedAccess,
            .ioErrorFailedLockCheck, .ioErrorFailedAdvisoryLock, .ioErrorFailedClose, .ioErrorFailedSharedMemOpen,
            .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap, .ioErrorFailedDeleteNonexistent,
            .ioErrorFailedMemoryMap, .ioErrorCantFindTempdir, .ioErrorCygwinPath, .noLFS:
            .io
        case .corrupt, .corruptVirtualTable, .corruptSequenceSchema, .corruptIndex, .notADatabase,
            .ioErrorBadDataChecksum, .ioErrorCorruptedFilesystem:
            .damaged
        default:
            .other
        }
    }
}
