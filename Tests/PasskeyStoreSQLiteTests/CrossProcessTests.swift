import Foundation
import PasskeyStorage
import ProcessTestSupport
import Testing

@testable import PasskeyStoreSQLite

/// Another process holds the database's write lock: Python's sqlite3 module, as a stand-in for a second server
/// (or an operator's sqlite3 shell) on the same file.
@Suite(
    "A second process on the same file",
    .enabled(if: LockingProcess.isAvailable, "needs python3 and its sqlite3 module to hold the lock")
)
struct CrossProcessTests {
    @Test("the store waits for another process's transaction, and fails with .unavailable after its busy timeout")
    func waitsForTheOtherProcess() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            try await withStore(at: path, busyTimeout: .milliseconds(200)) { impatient in
                try await withStore(at: path) { patient in
                    let challenge = Sample.bytes()
                    var flow = Sample.flow(userID: nil, status: .optionsIssued)
                    flow.challengeHash = challenge
                    flow.challengeExpiresAt = Sample.now + 60
                    try await patient.createFlow(flow)

                    let other = try LockingProcess(path: path)
                    defer { other.stop() }
                    try await other.waitUntilLocked()

                    let timedOut = await storeError {
                        _ = try await impatient.consumeChallenge(
                            flowID: flow.id,
                            challengeHash: challenge,
                            at: Sample.now
                        )
                    }
                    #expect(timedOut?.code == .unavailable)
                    #expect(timedOut?.reason.contains("locked") == true)

                    // The default busy timeout (5 s) outlasts the other process's transaction.
                    let flowID = flow.id
                    let waiting = Task {
                        try await patient.consumeChallenge(flowID: flowID, challengeHash: challenge, at: Sample.now)
                    }
                    // The patient's operation is queued for its connection, and then waits for the lock, which the
                    // other process still holds: only then is the lock released.
                    var started = false
                    for _ in 0..<500 where !started {
                        started = patient.connection.operations > 0
                        if !started { try await Task.sleep(for: .milliseconds(10)) }
                    }
                    try #require(started, "the patient's operation never started")
                    try await other.commitAndExit()
                    let consumed = try await waiting.value
                    #expect(consumed?.id == flow.id)
                    let after = try await impatient.flow(id: flow.id)
                    #expect(after?.status == .verifying)
                }
            }
        }
    }
}

/// A python3 process that opens the file, takes the write lock (`BEGIN IMMEDIATE`), says "locked", and commits
/// when a line arrives on its standard input.
final class LockingProcess: Sendable {
    /// python3 on `PATH` (its standard library has the sqlite3 module).
    static let python: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/python3" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { python != nil }

    private static let script = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
        connection.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        sys.stdin.readline()
        connection.execute("COMMIT")
        connection.close()
        """

    private let process: ChildProcess

    init(path: String) throws {
        let python = try #require(Self.python, "python3 is not on PATH")
        process = try ChildProcess.launch(python, ["-c", Self.script, path], input: .pipe)
    }

    /// Returns once the process holds the lock; however long that takes, unless the process ends first.
    func waitUntilLocked() async throws {
        while !process.standardOutput.hasPrefix("locked") {
            let status = process.terminationStatus
            try #require(status == nil, "the other process ended without locking the file: \(process.standardError)")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Ends the process if it is still running (after a failed check).
    func stop() {
        process.kill(SIGKILL)
    }

    func commitAndExit() async throws {
        process.write(Array("commit\n".utf8))
        process.closeInput()
        let status = try await process.wait(timeout: .seconds(60))
        try #require(status == 0, "the other process failed: \(process.standardError)")
    }
}
