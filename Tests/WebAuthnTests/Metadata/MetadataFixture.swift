import Foundation
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// BLOBs for the metadata tests: signed by a `TestMetadataService`, verified at `Fixture.now`.
enum MetadataFixture {
    /// The AAGUID of `TestAuthenticator`.
    static let aaguid = [UInt8](repeating: 0xAA, count: 16)

    /// Verifies `blob` against `roots` (the service's root by default).
    static func load(
        _ blob: [UInt8],
        from service: TestMetadataService,
        roots: [Certificate]? = nil,
        at time: Date = Fixture.now,
        allowStale: Bool = false,
        limits: MetadataBLOB.Limits = MetadataBLOB.Limits()
    ) async throws -> MetadataBLOB {
        try await MetadataBLOB(
            jws: blob,
            rootCertificates: roots ?? [service.root],
            at: time,
            allowStale: allowStale,
            limits: limits
        )
    }

    /// A verified BLOB with one FIDO2 entry for `TestAuthenticator`'s AAGUID, whose root is `authority`'s.
    static func blob(
        for authority: TestCertificateAuthority,
        statuses: [AuthenticatorStatus] = [.fidoCertified],
        nextUpdate: String = "2030-01-01",
        allowStale: Bool = false
    ) async throws -> MetadataBLOB {
        let service = try TestMetadataService()
        let entry = try TestMetadataService.entry(
            aaguid: aaguid,
            description: "Test Key by swift-passkeys",
            roots: [authority.root],
            statuses: statuses
        )
        return try await load(
            try service.blob(entries: [entry], nextUpdate: nextUpdate),
            from: service,
            allowStale: allowStale
        )
    }

    /// A payload object with these entries (serial number 7, next update 2030-01-01).
    static func payload(entries: [[String: Any]]) -> [String: Any] {
        ["legalHeader": "Test metadata.", "no": 7, "nextUpdate": "2030-01-01", "entries": entries]
    }

    /// A payload member change, for tables of malformed payloads.
    struct Change: Sendable, CustomTestStringConvertible {
        let name: String
        let apply: @Sendable (inout [String: Any]) -> Void
        var testDescription: String { name }
    }

    /// Changes the first entry (its metadata statement when `inStatement`).
    static func entryChange(
        _ name: String,
        inStatement: Bool = false,
        _ change: @escaping @Sendable (inout [String: Any]) -> Void
    ) -> Change {
        Change(name: name) { payload in
            var entries = payload["entries"] as? [[String: Any]] ?? []
            entries[0] = changing(entries[0], inStatement: inStatement, change)
            payload["entries"] = entries
        }
    }

    /// An entry with a change applied to it (to its metadata statement when `inStatement`).
    static func changing(
        _ entry: [String: Any],
        inStatement: Bool = false,
        _ change: (inout [String: Any]) -> Void
    ) -> [String: Any] {
        var entry = entry
        if inStatement {
            var statement = entry["metadataStatement"] as? [String: Any] ?? [:]
            change(&statement)
            entry["metadataStatement"] = statement
        } else {
            change(&entry)
        }
        return entry
    }
}
