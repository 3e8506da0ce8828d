public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests run — the built `passkeys`, Chromium, python3, zbarimg — started with `posix_spawn` through
/// one spawner thread, instead of Foundation's `Process`.
///
/// Why not `Process`: on Linux with Swift 6.3.1, `Process.run()` crashed the test process (SIGSEGV in a `memcpy`
/// inside `run()`) while other tests started processes at the same moment. Here every start goes through one
/// thread, one at a time, with argument and environment strings owned by this call, and the child's descriptors
/// set up by the spawn itself: standard input from `/dev/null` or a close-on-exec pipe, standard output and error
/// into files (a child never blocks on a full pipe), every other descriptor closed.
///
/// A child dies with the test process: it is started under `setpriv --pdeathsig KILL` (util-linux), and the parent
/// that the kernel watches is the spawner thread, which lives as long as the process — so a crashed or killed test
/// run leaves no server or browser behind. Each child leads a process group of its own, so ``kill(_:)`` reaches the
/// helpers it starts (a browser's renderers) too.
public final class ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`: the child reads end of file.
        case null
        /// A pipe that ``write(_:)`` feeds and ``closeInput()`` ends.
        case pipe
    }

    public let pid: pid_t
    /// The program and its arguments, for messages.
    public let commandLine: String
    /// The files that hold what the child writes to standard output and standard error.
    public let outputFile: URL
    public let errorFile: URL
    private let input: Mutex<Int32?>
    private let waitStatus = Mutex<Int32?>(nil)
    private let ownedFolder: URL?

    private init(pid: pid_t, commandLine: String, outputFile: URL, errorFile: URL, input: Int32?, ownedFolder: URL?) {
        self.pid = pid
        self.commandLine = commandLine
        self.outputFile = outputFile
        self.errorFile = errorFile
        self.input = Mutex(input)
        self.ownedFolder = ownedFolder
    }

    deinit {
        if isRunning { kill(SIGKILL) }
        closeInput()
        if let ownedFolder { try? FileManager.default.removeItem(at: ownedFolder) }
    }

    /// Starts `executable` with `arguments`. `environment` replaces the test process's environment when given;
    /// `directory` is the working directory. Output goes to `output` and `error` (files created or truncated), by
    /// default to files in a temporary folder removed with this object.
    public static func launch(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        input: Input = .null,
        output: URL? = nil,
        error: URL? = nil
    ) throws(ChildProcessError) -> ChildProcess {
        var ownedFolder: URL?
        if output == nil || error == nil {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-child-\(UUID())")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw ChildProcessError("no folder for \(executable)'s output: \(error)")
            }
            ownedFolder = folder
        }
        let outputFile = output ?? ownedFolder!.appendingPathComponent("stdout")
        let errorFile = error ?? ownedFolder!.appendingPathComponent("stderr")
        let commandLine = ([executable] + arguments).joined(separator: " ")
        let request = SpawnRequest(
            executable: executable,
            arguments: arguments,
            environment: (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" },
            directory: directory?.path,
            pipedInput: input == .pipe,
            outputPath: outputFile.path,
            errorPath: errorFile.path
        )
        let child: SpawnedChild
        switch Spawner.shared.spawn(request) {
        case .success(let started):
            child = started
        case .failure(let failure):
            if let ownedFolder { try? FileManager.default.removeItem(at: ownedFolder) }
            throw ChildProcessError("\(commandLine) could not start: \(failure)")
        }
        return ChildProcess(
            pid: child.pid,
            commandLine: commandLine,
            outputFile: outputFile,
            errorFile: errorFile,
            input: child.input,
            ownedFolder: ownedFolder
        )
    }

    /// Runs `executable` to its end, feeding it `input` (if any), and returns its status and output. A child still
    /// running after `timeout` is killed and the call throws.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        input: [UInt8]? = nil,
        timeout: Duration = .seconds(120)
    ) async throws(ChildProcessError) -> Result {
        let child = try launch(
            executable,
            arguments,
            environment: environment,
            directory: directory,
            input: input == nil ? .null : .pipe
        )
        if let input {
            child.write(input)
            child.closeInput()
        }
        let status = try await child.wait(timeout: timeout)
        return Result(
            status: status,
            output: Array((try? Data(contentsOf: child.outputFile)) ?? Data()),
            standardError: child.standardError
        )
    }

    /// The status and output of a child that ran to its end.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public let status: Int32
        /// Its standard output's bytes.
        public let output: [UInt8]
        public let standardError: String
        /// Its standard output as text (invalid UTF-8 replaced).
        public var standardOutput: String { String(decoding: output, as: UTF8.self) }
    }

    /// Whether the child has not exited yet (it is reaped as soon as it has).
    public var isRunning: Bool { reap() == nil }

    /// The exit status, or 128 + the signal that ended the child; nil while it runs.
    public var terminationStatus: Int32? { reap() }

    /// Waits for the child to end and returns ``terminationStatus``; kills it and throws after `timeout`.
    public func wait(timeout: Duration) async throws(ChildProcessError) -> Int32 {
        if let status = await exit(within: timeout) { return status }
        kill(SIGKILL)
        _ = await exit(within: .seconds(10))
        throw ChildProcessError("\(commandLine) did not finish within \(timeout) and was killed")
    }

    /// The status once the child has ended, or nil if it still runs after `timeout`. Polls: the wait does not
    /// depend on a signal handler, and a few milliseconds of latency do not matter to a test.
    public func exit(within timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let status = reap() { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `signal` to the child's process group (the child and what it started).
    public func kill(_ signal: Int32) {
        guard reap() == nil else { return }
        _ = sendSignal(-pid, signal)
        _ = sendSignal(pid, signal)
    }

    /// SIGTERM, then SIGKILL when the child has not ended within `grace`; returns once it has ended.
    public func stop(grace: Duration = .seconds(5)) async {
        kill(SIGTERM)
        if await exit(within: grace) != nil { return }
        kill(SIGKILL)
        _ = await exit(within: .seconds(10))
    }

    /// Writes to the child's standard input (a `.pipe` input); a child that stopped reading loses the rest.
    public func write(_ bytes: [UInt8]) {
        input.withLock { descriptor in
            guard let descriptor else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { writeBytes(descriptor, $0) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Ends the child's standard input (it reads end of file).
    public func closeInput() {
        input.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    /// What the child has written to standard output so far.
    public var standardOutput: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// What the child has written to standard error so far.
    public var standardError: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The status once reaped; reaps the child when it has exited.
    private func reap() -> Int32? {
        waitStatus.withLock { known -> Int32? in
            if let known { return Self.status(known) }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                known = status
                return Self.status(status)
            }
            // ECHILD: reaped elsewhere; it has ended, its status is lost.
            if result < 0, errno == ECHILD {
                known = 0x7f00
                return Self.status(0x7f00)
            }
            return nil
        }
    }

    private static func status(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}

/// Why a child process could not be started or did not end in time.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

// Module functions that the methods named `kill` and `write` would otherwise hide.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}
