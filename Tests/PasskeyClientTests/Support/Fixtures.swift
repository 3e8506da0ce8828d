import Foundation
import PasskeyClient
import Testing
import WebAuthn

/// Fixed inputs for the authenticator and client tests.
enum Fixtures {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let challenge: [UInt8] = Array(0..<32)
    static let userHandle: [UInt8] = Array(repeating: 7, count: 32)

    static func creationOptions(
        attestation: AttestationConveyancePreference? = nil,
        residentKey: ResidentKeyRequirement? = .required,
        userVerification: UserVerificationRequirement? = .preferred,
        exclude: [[UInt8]] = [],
        timeout: UInt32? = 60_000,
        algorithms: [COSEAlgorithmIdentifier] = [.es256, .rs256],
        extensions: [String: JSONValue]? = nil
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: rpID, name: "Example"),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URLBytes(userHandle),
                name: "alice",
                displayName: "Alice"
            ),
            challenge: Base64URLBytes(challenge),
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            timeout: timeout,
            excludeCredentials: exclude.isEmpty
                ? nil : exclude.map { PublicKeyCredentialDescriptorJSON(id: Base64URLBytes($0)) },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: residentKey,
                userVerification: userVerification
            ),
            attestation: attestation,
            extensions: extensions
        )
    }

    static func requestOptions(
        allow: [[UInt8]] = [],
        userVerification: UserVerificationRequirement? = .preferred,
        timeout: UInt32? = 60_000,
        hints: [PublicKeyCredentialHint]? = nil
    ) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URLBytes(challenge),
            timeout: timeout,
            rpId: rpID,
            allowCredentials: allow.isEmpty
                ? nil : allow.map { PublicKeyCredentialDescriptorJSON(id: Base64URLBytes($0)) },
            userVerification: userVerification,
            hints: hints
        )
    }

    static func creationRequest(
        _ options: PublicKeyCredentialCreationOptionsJSON = creationOptions(),
        userId: String? = "alice"
    ) -> CredentialCreationRequest {
        CredentialCreationRequest(options: options, origin: origin, rpID: rpID, userId: userId)
    }

    static func assertionRequest(
        _ options: PublicKeyCredentialRequestOptionsJSON = requestOptions()
    ) -> CredentialAssertionRequest {
        CredentialAssertionRequest(options: options, origin: origin, rpID: rpID)
    }
}

/// A folder for test files, removed when the test ends.
struct TemporaryFolder {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("passkey-client-tests-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The names of the files in the folder.
    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}

/// The ``PasskeyError`` `body` throws (nil when it succeeds; another error type is recorded as an issue).
func passkeyError(_ body: () async throws -> Void) async -> PasskeyError? {
    do {
        try await body()
        return nil
    } catch let error as PasskeyError {
        return error
    } catch {
        Issue.record("expected a PasskeyError, got \(error)")
        return nil
    }
}
