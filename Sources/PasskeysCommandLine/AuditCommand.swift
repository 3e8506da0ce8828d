import ArgumentParser
import Foundation
import PasskeyServer
import PasskeyStorage
import WebAuthn

/// `passkeys audit`: the server's audit log.
struct AuditCommand: CommandGroup {
    static let commandPath = "passkeys audit"

    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the server's audit log.",
        subcommands: [AuditVerifyCommand.self]
    )
}

/// `passkeys audit verify`: walks the audit log's hash chain and checks its signed checkpoints.
struct AuditVerifyCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify the audit log's hash chain and its signed checkpoints.",
        discussion: """
            Reads every checkpoint and checks its signature, then walks the events from the oldest kept one, \
            checking that each follows the one before and matches its hash, and that each checkpoint signs the hash \
            the chain has at its event. Reports the first event altered, removed, inserted or moved, and a chain that \
            ends before its newest checkpoint (events removed from the end). Events after the newest checkpoint are \
            only as good as the database: the report counts them. Works while the server runs (opening the database \
            brings its schema up to date, as the server does).

              passkeys audit verify --database sqlite:/var/lib/passkeys/passkeys.sqlite --public-key KEY

            Without --public-key or --key-file each checkpoint is checked against the key it names, which proves \
            nothing against someone who can write the database: pass the public key the server logs at start \
            ("Audit checkpoints are signed with this public key") or a file holding it, or the server's key file, \
            once for each key the server has used.

            Exit codes: 0 verified; 1 a problem (its code, its event's sequence number and what is wrong, on one \
            line) or the database could not be read; 2 bad usage.
            """
    )

    @OptionGroup var database: ServerDatabaseOption

    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp(
            "A key checkpoints may be signed with: base64 of its 32 bytes, or a file holding that (repeatable).",
            valueName: "key"
        )
    )
    var publicKeys: [String] = []

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The server's checkpoint key file (audit.checkpointKeyFile): its public key is trusted (repeatable).",
            valueName: "file"
        )
    )
    var keyFiles: [String] = []

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let parsed: ServerConfiguration.Database
        switch database.parsed() {
        case .success(let database): parsed = database
        case .failure(let error): return error.result
        }
        var trustedKeys: [[UInt8]]?
        if !publicKeys.isEmpty || !keyFiles.isEmpty {
            do {
                trustedKeys =
                    try publicKeys.map { try Self.publicKey($0) } + keyFiles.map { try Self.publicKey(ofKeyFile: $0) }
            } catch {
                return CommandResult(exitCode: CommandResult.usage, standardError: "error: \(error)\n")
            }
        }
        let opened: OpenedStore
        do {
            opened = try await OpenedStore.open(parsed)
        } catch {
            return CommandLineError(.auditUnreadable, "\(error)").result
        }
        let report: AuditChainReport
        do {
            report = try await AuditChainVerification.verify(opened.store, trustedKeys: trustedKeys)
        } catch let problem as AuditChainProblem {
            await opened.close()
            return CommandResult(exitCode: CommandResult.failure, standardError: "error: \(problem)\n")
        } catch {
            await opened.close()
            return CommandLineError(.auditUnreadable, "\(error)").result
        }
        await opened.close()
        return CommandResult(
            exitCode: CommandResult.success,
            standardOutput: report.summary(of: parsed.forDisplay, pinned: trustedKeys != nil)
        )
    }

    /// The public key of the server's checkpoint key file, read as the server reads it.
    static func publicKey(ofKeyFile file: String) throws -> [UInt8] {
        var configuration = ServerConfiguration()
        configuration.audit.checkpointKeyFile = file
        guard FileManager.default.fileExists(atPath: file) else {
            throw OptionValueError("--key-file: there is no file \(file)")
        }
        do {
            return try AuditCheckpointKey.load(for: configuration).publicKey
        } catch {
            throw OptionValueError("--key-file: \(error.message)")
        }
    }

    /// The 32 bytes of a public key given as base64 (or base64url), or as a file holding that.
    static func publicKey(_ value: String) throws -> [UInt8] {
        var text = value
        if FileManager.default.fileExists(atPath: value) {
            guard let data = FileManager.default.contents(atPath: value) else {
                throw OptionValueError("--public-key: \(value) cannot be read")
            }
            text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let bytes = Data(base64Encoded: base64), bytes.count == 32 else {
            throw OptionValueError(
                "--public-key: '\(value)' is not a public key (base64 of 32 bytes) or a file holding one"
            )
        }
        return Array(bytes)
    }
}

extension AuditChainReport {
    /// What `passkeys audit verify` prints when the log verified.
    func summary(of database: String, pinned: Bool) -> String {
        guard let first = firstSequence, let head else {
            let purged = lastCheckpoint.map {
                ", purged up to its checkpoint of event \($0.sequence), signed \($0.time.formatted(.iso8601))"
            }
            return "Verified the audit log of \(database): no chained events\(purged ?? "").\n"
        }
        // Deleting the oldest events looks like a purge: when they were recorded tells them apart.
        let start =
            startsAtGenesis
            ? "from the chain's start"
            : "older ones purged; event \(first) was recorded \(firstTime?.formatted(.iso8601) ?? "at an unknown time")"
        var lines = [
            "Verified the audit log of \(database): events \(first) to \(head.sequence) (\(start)), "
                + "\(verifiedCheckpoints) of \(checkpoints) checkpoint\(checkpoints == 1 ? "" : "s") on them."
        ]
        if legacyEvents > 0 { lines.append("\(legacyEvents) older events were written before the chain existed.") }
        if let lastCheckpoint {
            lines.append(
                "The newest checkpoint signs event \(lastCheckpoint.sequence)"
                    + (unsignedEvents > 0 ? "; the \(unsignedEvents) events after it are not signed yet." : ".")
            )
        }
        if !pinned {
            lines.append(
                "Signatures were checked against the keys the checkpoints name: pass --public-key to pin yours."
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension WebAuthnError.Code {
    /// `passkeys audit verify` could not open or read the database.
    static let auditUnreadable = Self(rawValue: "AUDIT_UNREADABLE")
}
