import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner-only files written atomically: a temporary file in the same folder, written in full, flushed to disk
/// (`fsync`), then renamed over the target, so a reader sees the old file or the new one, never a partial one.
enum AtomicFile {
    /// Where a write can be made to fail, to test that a failed write leaves the old file and no temporary file.
    enum Fault: Sendable {
        /// After half the bytes are written to the temporary file.
        case afterPartialWrite
        /// After the temporary file is complete and flushed, before the rename.
        case beforeRename
    }

    /// The file's bytes, or nil when there is no file. Refuses files that others may read or write.
    static func read(_ path: String, limit: Int) throws(PasskeyError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw failure("read", path, code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("inspect", path, errno) }
        guard Int(status.st_mode) & 0o170000 == 0o100000 else {
            throw PasskeyError(.keyStoreUnavailable, "'\(path)' is not a regular file.")
        }
        guard Int(status.st_mode) & 0o077 == 0 else {
            throw PasskeyError(
                .keyStoreInsecure,
                "'\(path)' can be read or written by other users (mode \(String(Int(status.st_mode) & 0o777, radix: 8))); make it owner-only: chmod 600 '\(path)'."
            )
        }
        guard Int(status.st_size) <= limit else { return Array(repeating: 0, count: limit + 1) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path, errno)
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > limit { break }
        }
        return bytes
    }

    /// Replaces the file at `path` with `bytes` (mode 0600), creating its folder (mode 0700) when missing.
    static func write(_ bytes: [UInt8], to path: String, fault: Fault? = nil) throws(PasskeyError) {
        let directory = (path as NSString).deletingLastPathComponent
        try createDirectory(directory.isEmpty ? "." : directory)
        let temporary =
            "\(directory.isEmpty ? "." : directory)/.\((path as NSString).lastPathComponent).tmp-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create a temporary file for", path, errno) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("set owner-only permissions on", path, errno) }
            let limit = fault == .afterPartialWrite ? bytes.count / 2 : bytes.count
            try writeAll(descriptor, bytes[0..<limit], path: path)
            if fault == .afterPartialWrite {
                throw PasskeyError(.keyStoreUnavailable, "Injected failure after a partial write of '\(path)'.")
            }
            guard fsync(descriptor) == 0 else { throw failure("flush", path, errno) }
        }
        if fault == .beforeRename {
            throw PasskeyError(.keyStoreUnavailable, "Injected failure before renaming over '\(path)'.")
        }
        guard rename(temporary, path) == 0 else { throw failure("replace", path, errno) }
        renamed = true
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Runs `body` holding an advisory lock (`flock`) on `path.lock`, so processes sharing a key store do not
    /// overwrite each other's changes.
    static func withLock<T>(
        _ path: String,
        exclusive: Bool,
        _ body: () throws(PasskeyError) -> T
    ) throws(PasskeyError) -> T {
        let directory = (path as NSString).deletingLastPathComponent
        if exclusive { try createDirectory(directory.isEmpty ? "." : directory) }
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // A reader of a store whose folder does not exist yet needs no lock: there is nothing to read.
            if !exclusive, errno == ENOENT { return try body() }
            throw failure("lock", path, errno)
        }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw failure("lock", path, errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    static func createDirectory(_ directory: String) throws(PasskeyError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw PasskeyError(
                    .keyStoreUnavailable,
                    "'\(directory)' is a file, not a folder; choose another key store path."
                )
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The folder '\(directory)' cannot be created: \(error.localizedDescription)",
                cause: error
            )
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, path: String) throws(PasskeyError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let count = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write", path, errno)
            }
            offset += count
        }
    }

    private static func failure(_ action: String, _ path: String, _ code: Int32) -> PasskeyError {
        PasskeyError(.keyStoreUnavailable, "Cannot \(action) '\(path)': \(String(cString: strerror(code))).")
    }
}

// `read` and `write` are shadowed by the methods above inside `AtomicFile`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
