import ArgumentParser
import Foundation
import PasskeyServer
import PasskeyStorage
import WebAuthn

/// `passkeys sessions`: the token sessions a redemption may issue.
struct SessionsCommand: CommandGroup {
    static let commandPath = "passkeys sessions"

    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "Manage the keys that sign token sessions' access tokens.",
        subcommands: [SessionsRotateKeyCommand.self]
    )
}

/// `passkeys sessions rotate-key`: a new current signing key; the old one stays published until its tokens expire.
struct SessionsRotateKeyCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-key",
        abstract: "Make a new key sign access tokens; the old one stays published until its tokens expire.",
        discussion: """
            Makes a new P-256 key the current signing key of access tokens, in one transaction. Servers sign with it \
            from their next token on; the key it replaces stays published at /.well-known/jwks.json for an hour and \
            a minute (the longest access-token lifetime, sessions.accessTokenSeconds, and a margin), so tokens it \
            signed still verify, and is purged after that. Works while servers run.

              passkeys sessions rotate-key --database sqlite:/var/lib/passkeys/passkeys.sqlite

            Exit codes: 0 rotated; 1 the database could not be opened or written; 2 bad usage.
            """
    )

    @OptionGroup var database: ServerDatabaseOption

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let parsed: ServerConfiguration.Database
        switch database.parsed() {
        case .success(let database): parsed = database
        case .failure(let error): return error.result
        }
        let opened: OpenedStore
        do {
            opened = try await OpenedStore.open(parsed)
        } catch {
            return CommandLineError(.sessionKeyNotRotated, "\(error)").result
        }
        let outcome: SessionKeyRotation.Outcome
        do {
            outcome = try await SessionKeyRotation.rotate(in: opened.store, at: Date())
        } catch {
            await opened.close()
            return CommandLineError(.sessionKeyNotRotated, "\(error)").result
        }
        await opened.close()
        var output = "The access tokens of \(parsed.forDisplay) are now signed with key \(outcome.currentKeyID).\n"
        if let retired = outcome.retiredKeyID, let until = outcome.retiredKeyPublishedUntil {
            output += "Key \(retired) is retired; it stays published until \(until.formatted(.iso8601)).\n"
        }
        return CommandResult(exitCode: CommandResult.success, standardOutput: output)
    }
}

extension WebAuthnError.Code {
    /// `passkeys sessions rotate-key` could not open the database or write the new key.
    static let sessionKeyNotRotated = Self(rawValue: "SESSION_KEY_NOT_ROTATED")
}
