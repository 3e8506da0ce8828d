import Crypto
import Foundation
import PasskeyClient
import PasskeyTesting
import Testing
import WebAuthn

/// Step-up sign-in against a scripted server: the transaction bound into the challenge is checked before anything
/// is signed, and the user confirms its text.
@Suite("Step-up: the transaction bound into the challenge")
struct StepUpTests {
    static let options = "/v1/client/authentications/auth_1/options"
    static let complete = "/v1/client/authentications/auth_1/complete"
    static let randomHalf = [UInt8](repeating: 0xA5, count: 32)
    /// "René" with the é precomposed (U+00E9), as NFC has it.
    static let payment = "Pay 10 € to Ren\u{E9}"

    /// SHA-256 over the UTF-8 of `text` as given — the tests' own digest, independent of the SDK's.
    static func sha256(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }

    static func client(
        _ server: ScriptedServer,
        _ authenticator: ScriptableAuthenticator,
        verifier: (any IdentityVerifier)? = nil,
        wait: Duration = .seconds(600)
    ) throws -> PasskeyClient {
        PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: Fixtures.rpID,
                serverBaseURL: ScriptedServer.baseURL,
                storage: "tests"
            ),
            authenticator: authenticator,
            transport: server,
            identityVerifier: verifier,
            identityVerificationWait: wait
        )
    }

    /// An authenticator holding a discoverable passkey of example.com.
    static func authenticatorWithPasskey() async throws -> ScriptableAuthenticator {
        let authenticator = ScriptableAuthenticator()
        _ = try await authenticator.makeCredential(Fixtures.creationRequest())
        return authenticator
    }

    static func stepUp(
        _ confirmations: TransactionConfirmations?,
        identityVerification: Bool = false
    )
        -> AuthenticationInput
    {
        AuthenticationInput(
            sessionId: "auth_1",
            clientToken: "pkc_token",
            mode: .stepUp(
                .init(identityVerification: identityVerification, confirmTransaction: confirmations?.callback)
            )
        )
    }

    @Test("the digest is the unpadded base64url SHA-256 of the NFC text")
    func digest() {
        #expect(TransactionDetails.digest(of: "abc") == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
        #expect(TransactionDetails.digest(of: "Pay 10 € to Rene\u{301}") == Base64URL.encode(Self.sha256(Self.payment)))
        #expect(TransactionDetails.digest(of: "Pay 10 € to Rene") != TransactionDetails.digest(of: Self.payment))
        #expect(TransactionDetails(text: "abc").digest == TransactionDetails.digest(of: "abc"))
    }

    @Test("a challenge that ends with the text's digest: the user confirms the text, then the passkey signs")
    func boundChallenge() async throws {
        let server = ScriptedServer()
        let transaction = TransactionDetails(text: Self.payment, digest: Base64URL.encode(Self.sha256(Self.payment)))
        let challenge = Self.randomHalf + Self.sha256(Self.payment)
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(challenge: challenge, transaction: transaction)
        )
        await server.on("POST", Self.complete, ScriptedServer.completedAuthentication)
        let authenticator = try await Self.authenticatorWithPasskey()
        let confirmations = TransactionConfirmations()

        let result = try await Self.client(server, authenticator).authenticate(Self.stepUp(confirmations))

        #expect(await confirmations.shown == [transaction])
        #expect(result.transaction == transaction)
        #expect(result.resultToken == "pkr_result")
        let signed = await authenticator.assertionRequests
        #expect(signed.count == 1)
        #expect(signed.first?.options.challenge.bytes == challenge)
        #expect(await server.calls == ["POST \(Self.options)", "POST \(Self.complete)"])
    }

    @Test("a text with a decomposed é is digested after NFC: it matches the digest of the precomposed text")
    func normalisedText() async throws {
        let server = ScriptedServer()
        let decomposed = "Pay 10 € to Rene\u{301}"
        #expect(Array(decomposed.utf8) != Array(Self.payment.utf8))
        let transaction = TransactionDetails(text: decomposed, digest: Base64URL.encode(Self.sha256(Self.payment)))
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(
                challenge: Self.randomHalf + Self.sha256(Self.payment),
                transaction: transaction
            )
        )
        await server.on("POST", Self.complete, ScriptedServer.completedAuthentication)
        let authenticator = try await Self.authenticatorWithPasskey()
        let confirmations = TransactionConfirmations()
        _ = try await Self.client(server, authenticator).authenticate(Self.stepUp(confirmations))
        #expect(await confirmations.shown.map(\.text) == [decomposed])
        #expect(await authenticator.assertionRequests.count == 1)
    }

    /// A transaction and a challenge that do not belong together.
    struct Tampering: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let transaction: TransactionDetails
        let challenge: [UInt8]
    }

    static let tamperings: [Tampering] = {
        let payment = StepUpTests.payment
        let other = "Pay 1000 € to Mallory"
        // U+0308 (diaeresis) instead of U+0301 (acute): another text after NFC.
        let lookalike = "Pay 10 € to Rene\u{308}"
        return [
            Tampering(
                testDescription: "the challenge's last 32 bytes are not the digest of the text",
                transaction: TransactionDetails(text: payment),
                challenge: randomHalf + sha256(other)
            ),
            Tampering(
                testDescription: "the digest field is not the digest of the text (the challenge carries the field)",
                transaction: TransactionDetails(text: payment, digest: Base64URL.encode(sha256(other))),
                challenge: randomHalf + sha256(other)
            ),
            Tampering(
                testDescription: "the text shown differs after NFC from the text the challenge binds",
                transaction: TransactionDetails(text: lookalike),
                challenge: randomHalf + sha256(payment)
            ),
            Tampering(
                testDescription: "the challenge is the digest alone (32 bytes)",
                transaction: TransactionDetails(text: payment),
                challenge: sha256(payment)
            ),
            Tampering(
                testDescription: "the challenge has a byte too many (65 bytes ending with the digest)",
                transaction: TransactionDetails(text: payment),
                challenge: randomHalf + [0] + sha256(payment)
            ),
        ]
    }()

    @Test("AUTH_CONTEXT_MISMATCH, and nothing shown or signed, when", arguments: tamperings)
    func refused(_ tampering: Tampering) async throws {
        let server = ScriptedServer()
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(challenge: tampering.challenge, transaction: tampering.transaction)
        )
        await server.on("POST", Self.complete, ScriptedServer.completedAuthentication)
        let authenticator = try await Self.authenticatorWithPasskey()
        let confirmations = TransactionConfirmations()
        let error = await passkeyError {
            _ = try await Self.client(server, authenticator).authenticate(Self.stepUp(confirmations))
        }
        #expect(error?.code == .authContextMismatch)
        #expect(await authenticator.assertionRequests.isEmpty)
        #expect(await confirmations.shown.isEmpty)
        #expect(await server.count("POST", Self.complete) == 0)
    }

    @Test("the user declines the transaction: USER_CANCELLED, nothing signed")
    func declined() async throws {
        let server = ScriptedServer()
        let transaction = TransactionDetails(text: Self.payment)
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(
                challenge: Self.randomHalf + Self.sha256(Self.payment),
                transaction: transaction
            )
        )
        let authenticator = try await Self.authenticatorWithPasskey()
        let confirmations = TransactionConfirmations(approve: false)
        let error = await passkeyError {
            _ = try await Self.client(server, authenticator).authenticate(Self.stepUp(confirmations))
        }
        #expect(error?.code == .userCancelled)
        #expect(await confirmations.shown == [transaction])
        #expect(await authenticator.assertionRequests.isEmpty)
        #expect(await server.count("POST", Self.complete) == 0)
    }

    @Test(
        "a session with a transaction but no confirmation callback is INVALID_CONFIGURATION",
        arguments: [AuthenticationInput.Mode.standard, .stepUp(.init())]
    )
    func noCallback(_ mode: AuthenticationInput.Mode) async throws {
        let server = ScriptedServer()
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(
                challenge: Self.randomHalf + Self.sha256(Self.payment),
                transaction: TransactionDetails(text: Self.payment)
            )
        )
        let authenticator = try await Self.authenticatorWithPasskey()
        let error = await passkeyError {
            _ = try await Self.client(server, authenticator).authenticate(
                AuthenticationInput(sessionId: "auth_1", clientToken: "pkc_token", mode: mode)
            )
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("confirmTransaction") == true)
        #expect(await authenticator.assertionRequests.isEmpty)
    }

    @Test("a step-up session without a transaction signs without asking for confirmation")
    func withoutTransaction() async throws {
        let server = ScriptedServer()
        await server.on(
            "POST",
            Self.options,
            ScriptedServer.authenticationOptions(challenge: Self.randomHalf, transaction: nil)
        )
        await server.on("POST", Self.complete, ScriptedServer.completedAuthentication)
        let authenticator = try await Self.authenticatorWithPasskey()
        let confirmations = TransactionConfirmations()
        let result = try await Self.client(server, authenticator).authenticate(Self.stepUp(confirmations))
        #expect(result.transaction == nil)
        #expect(await confirmations.shown.isEmpty)
        #expect(await authenticator.assertionRequests.count == 1)
    }
}
