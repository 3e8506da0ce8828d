import ArgumentParser
public import Foundation
import Synchronization
import WebAuthn

/// What a command produced: the text for standard output and standard error, and the exit code.
/// Commands return it instead of printing and exiting, so that tests can run them in-process.
public struct CommandResult: Sendable, Equatable {
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String

    public init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Exit code 0: verified, inspected, or help shown.
    public static let success: Int32 = 0
    /// Exit code 1: the ceremony did not verify, or the input could not be read or decoded.
    public static let failure: Int32 = 1
    /// Exit code 2: bad usage (a missing or invalid option).
    public static let usage: Int32 = 2
}

/// What commands take from the process: standard input and the clock. Tests substitute both.
public struct CommandEnvironment: Sendable {
    /// Reads all of standard input (for `-` as a file name).
    public var readStandardInput: @Sendable () throws -> [UInt8]
    /// The current time (the default verification time).
    public var now: @Sendable () -> Date
    /// Shows a question before standard input is read (on the terminal's standard error); nothing in tests.
    public var prompt: @Sendable (String) -> Void
    /// The next line of standard input without its line break, as soon as it is typed; nil at its end.
    public var readLine: @Sendable () -> String?

    /// `readLine` defaults to the lines of what `readStandardInput` returns.
    public init(
        readStandardInput: @escaping @Sendable () throws -> [UInt8],
        now: @escaping @Sendable () -> Date = { Date() },
        prompt: @escaping @Sendable (String) -> Void = { _ in },
        readLine: (@Sendable () -> String?)? = nil
    ) {
        self.readStandardInput = readStandardInput
        self.now = now
        self.prompt = prompt
        self.readLine = readLine ?? InputLines(readStandardInput).next
    }

    /// An environment whose standard input holds `bytes`.
    public init(standardInput bytes: [UInt8] = [], now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(readStandardInput: { bytes }, now: now)
    }

    /// The running process's standard input and clock.
    public static let process = CommandEnvironment(
        readStandardInput: { Array(try FileHandle.standardInput.read(upToCount: InputFile.maximumSize + 1) ?? Data()) },
        now: { Date() },
        prompt: { FileHandle.standardError.write(Data($0.utf8)) },
        readLine: { Swift.readLine(strippingNewline: true) }
    )
}

/// The lines of a standard input read whole (at most 64 of them, 64 bytes each), one at a time.
private final class InputLines: Sendable {
    private let lines: Mutex<[String]?> = Mutex(nil)
    private let read: @Sendable () throws -> [UInt8]

    init(_ read: @escaping @Sendable () throws -> [UInt8]) { self.read = read }

    @Sendable func next() -> String? {
        lines.withLock { lines in
            if lines == nil {
                let bytes = (try? read()) ?? []
                lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(64)
                    .map { String(decoding: $0.prefix(64), as: UTF8.self) }
                if bytes.last == UInt8(ascii: "\n") || bytes.isEmpty { lines?.removeLast() }
            }
            guard let first = lines?.first else { return nil }
            lines?.removeFirst()
            return first
        }
    }
}

/// A leaf command: parsed options in, a ``CommandResult`` out, without printing or exiting.
protocol ExecutableCommand: AsyncParsableCommand {
    func execute(in environment: CommandEnvironment) async -> CommandResult
}

extension ExecutableCommand {
    /// Used only when a command is run through ArgumentParser's own `main()`; the executable uses ``PasskeysTool``.
    mutating func run() async throws {
        let result = await execute(in: .process)
        result.write()
        if result.exitCode != CommandResult.success { throw ExitCode(result.exitCode) }
    }
}

extension CommandResult {
    /// Writes the outputs to the process's standard output and standard error.
    func write() {
        if !standardOutput.isEmpty { FileHandle.standardOutput.write(Data(standardOutput.utf8)) }
        if !standardError.isEmpty { FileHandle.standardError.write(Data(standardError.utf8)) }
    }
}

/// Reads the FILE argument of a command: a path, or `-` for standard input.
enum InputFile {
    /// Inputs larger than this are refused before decoding (every decoder has a smaller limit of its own).
    static let maximumSize = 1024 * 1024

    static func read(_ path: String, in environment: CommandEnvironment) throws(CommandLineError) -> [UInt8] {
        let bytes: [UInt8]
        if path == "-" {
            do {
                bytes = try environment.readStandardInput()
            } catch {
                throw CommandLineError(.fileUnreadable, "Standard input cannot be read: \(error.localizedDescription).")
            }
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandLineError(.fileUnreadable, "'\(path)' cannot be read: no such file.")
            }
            guard !isDirectory.boolValue else {
                throw CommandLineError(.fileUnreadable, "'\(path)' cannot be read: it is a directory.")
            }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CommandLineError(.fileUnreadable, "'\(path)' cannot be read: permission denied.")
            }
            defer { try? handle.close() }
            do {
                bytes = Array(try handle.read(upToCount: maximumSize + 1) ?? Data())
            } catch {
                throw CommandLineError(.fileUnreadable, "'\(path)' cannot be read: \(error.localizedDescription).")
            }
        }
        guard bytes.count <= maximumSize else {
            throw CommandLineError(
                .inputTooLarge,
                "\(path == "-" ? "Standard input" : "'\(path)'") is larger than \(maximumSize) bytes, more than any WebAuthn response."
            )
        }
        return bytes
    }
}
