import Crypto
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// Level 3 §8.9 `compound`: an array of statements, all of which must verify.
struct CompoundAttestationTests {
    /// A packed self statement by the credential key.
    static func selfStatement(_ authenticator: TestAuthenticator, _ parts: SignedParts) -> CBORValue {
        .map([
            CBORMapEntry(.text("fmt"), .text("packed")),
            CBORMapEntry(
                .text("attStmt"),
                .map([
                    CBORMapEntry(.text("alg"), CBORValue(authenticator.key.algorithm.rawValue)),
                    CBORMapEntry(
                        .text("sig"),
                        .bytes(authenticator.key.sign(parts.authenticatorData + parts.clientDataHash))
                    ),
                ])
            ),
        ])
    }

    /// A packed statement with an attestation certificate from `authority`.
    static func certificateStatement(_ authority: TestCertificateAuthority, _ parts: SignedParts) throws -> CBORValue {
        let key = P256.Signing.PrivateKey()
        let certificate = try authority.issue(for: .init(key.publicKey))
        return .map([
            CBORMapEntry(.text("fmt"), .text("packed")),
            CBORMapEntry(
                .text("attStmt"),
                CertificateFixture.packedStatement(parts, attestationKey: key, chain: [certificate])
            ),
        ])
    }

    static let noneStatement = CBORValue.map([
        CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.text("attStmt"), .map([])),
    ])

    static func verify(
        _ response: RegistrationResponseJSON,
        policy: AttestationPolicy = AttestationPolicy()
    ) async throws -> VerifiedRegistration {
        try await Fixture.registrationCeremony(attestation: policy).verify(response, at: Fixture.now)
    }

    @Test("§8.9: two valid statements verify; the result lists both")
    func twoValidStatements() async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let response = try Fixture.registration(authenticator, format: "compound") { parts in
            .array([Self.selfStatement(authenticator, parts), try Self.certificateStatement(authority, parts)])
        }
        let untrusted = try await Self.verify(response)
        #expect(untrusted.attestation.format == .compound)
        #expect(untrusted.attestation.components.map(\.type) == [.self, .basic])
        #expect(!untrusted.attestation.trusted)
        let trusted = try await Self.verify(
            response,
            policy: AttestationPolicy(trustAnchors: [.packed: [authority.root]])
        )
        #expect(trusted.attestation.trusted)
        #expect(trusted.attestation.type == .basic)
        #expect(trusted.attestation.components.map(\.trusted) == [false, true])
    }

    @Test("§8.9: one statement that does not verify fails the whole", arguments: [0, 1])
    func oneInvalidStatement(_ invalidIndex: Int) async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let response = try Fixture.registration(authenticator, format: "compound") { parts in
            var statements = [
                Self.selfStatement(authenticator, parts), try Self.certificateStatement(authority, parts),
            ]
            // Replace the chosen statement's signature with one over other data.
            guard case .map(var entries) = statements[invalidIndex], case .map(var inner) = entries[1].value else {
                return .array(statements)
            }
            let index = inner.firstIndex { $0.key == .text("sig") }!
            inner[index].value = .bytes(authenticator.key.sign(parts.clientDataHash))
            entries[1].value = .map(inner)
            statements[invalidIndex] = .map(entries)
            return .array(statements)
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test("§8.9: a compound statement inside a compound statement is ATTESTATION_INVALID")
    func nestedCompound() async throws {
        let authenticator = TestAuthenticator()
        for nestedStatement in [CBORValue.array([Self.noneStatement, Self.noneStatement]), .map([])] {
            let response = try Fixture.registration(authenticator, format: "compound") { parts in
                .array([
                    Self.selfStatement(authenticator, parts),
                    .map([
                        CBORMapEntry(.text("fmt"), .text("compound")), CBORMapEntry(.text("attStmt"), nestedStatement),
                    ]),
                ])
            }
            await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
        }
    }

    @Test(
        "§8.9: attStmt must be an array of at least two {fmt, attStmt} maps",
        arguments: [
            "one statement", "nine statements", "a map", "statement without fmt", "statement not a map",
        ]
    )
    func malformed(_ defect: String) async throws {
        let authenticator = TestAuthenticator()
        let response = try Fixture.registration(authenticator, format: "compound") { parts in
            switch defect {
            case "one statement": .array([Self.selfStatement(authenticator, parts)])
            case "nine statements": .array(Array(repeating: Self.noneStatement, count: 9))
            case "a map": .map([])
            case "statement without fmt":
                .array([Self.noneStatement, .map([CBORMapEntry(.text("attStmt"), .map([]))])])
            default: .array([Self.noneStatement, .text("none")])
            }
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test("§8.9: each statement's format must be supported and allowed")
    func innerFormats() async throws {
        let authenticator = TestAuthenticator()
        let unknown = try Fixture.registration(authenticator, format: "compound") { _ in
            .array([
                Self.noneStatement,
                .map([CBORMapEntry(.text("fmt"), .text("nonsense")), CBORMapEntry(.text("attStmt"), .map([]))]),
            ])
        }
        await #expect(throws: code(.attestationFormatUnsupported)) { try await Self.verify(unknown) }
        let packed = try Fixture.registration(authenticator, format: "compound") { parts in
            .array([Self.noneStatement, Self.selfStatement(authenticator, parts)])
        }
        _ = try await Self.verify(packed)
        await #expect(throws: code(.attestationFormatNotAllowed)) {
            try await Self.verify(packed, policy: AttestationPolicy(allowedFormats: [.compound, .none]))
        }
        await #expect(throws: code(.attestationFormatNotAllowed)) {
            try await Self.verify(packed, policy: AttestationPolicy(allowedFormats: [.none, .packed]))
        }
    }
}
