import Foundation
import PasskeyTesting
import Testing

@testable import WebAuthn

/// FIDO Metadata Service §3.1.1: each entry of a verified BLOB is read on its own. One of the wrong shape, over a
/// limit, or listing a model (AAGUID or key identifier) that another entry lists is set aside in `unusableEntries`
/// with its index, identifiers and reason; its models look up as unusable, and every other entry is kept.
struct MetadataEntryTests {
    typealias F = MetadataFixture

    /// A change to the first of two entries, what the reason it is set aside mentions, and whether its AAGUID can
    /// still be read (so that its model is unusable rather than absent).
    struct EntryProblem: Sendable, CustomTestStringConvertible {
        let change: F.Change
        let mentions: String
        let aaguidReadable: Bool
        var testDescription: String { change.testDescription }

        init(_ change: F.Change, mentions: String, aaguidReadable: Bool = true) {
            (self.change, self.mentions, self.aaguidReadable) = (change, mentions, aaguidReadable)
        }
    }

    static let malformedEntries: [EntryProblem] = [
        EntryProblem(
            F.Change(name: "entry not an object") { payload in
                var entries = payload["entries"] as? [Any] ?? []
                entries[0] = 1
                payload["entries"] = entries
            },
            mentions: "entries[0] is malformed: wrong type at entries[0]",
            aaguidReadable: false
        ),
        EntryProblem(
            F.entryChange("entry without any identifier") { $0["aaguid"] = nil },
            mentions: "entries[0] has none of 'aaguid'",
            aaguidReadable: false
        ),
        EntryProblem(
            F.entryChange("aaguid not a UUID") { $0["aaguid"] = "aaaaaaaa" },
            mentions: "entries[0].aaguid is not a UUID",
            aaguidReadable: false
        ),
        EntryProblem(
            F.entryChange("aaguid not text") { $0["aaguid"] = 7 },
            mentions: "entries[0] is malformed: wrong type at entries[0].aaguid",
            aaguidReadable: false
        ),
        EntryProblem(
            F.entryChange("key identifier not hex") {
                $0["attestationCertificateKeyIdentifiers"] = [String(repeating: "zz", count: 20)]
            },
            mentions: "entries[0].attestationCertificateKeyIdentifiers[0] is not a key identifier"
        ),
        EntryProblem(
            F.entryChange("key identifier too short") { $0["attestationCertificateKeyIdentifiers"] = ["abcd"] },
            mentions: "entries[0].attestationCertificateKeyIdentifiers[0] is not a key identifier"
        ),
        EntryProblem(
            F.entryChange("no timeOfLastStatusChange") { $0["timeOfLastStatusChange"] = nil },
            mentions: "entries[0] has no 'timeOfLastStatusChange'"
        ),
        EntryProblem(
            F.entryChange("status report without status") { $0["statusReports"] = [["effectiveDate": "2020-01-01"]] },
            mentions: "entries[0] is malformed: missing member 'status' at entries[0].statusReports[0]"
        ),
        EntryProblem(
            F.entryChange("effectiveDate not a date") {
                $0["statusReports"] = [["status": "REVOKED", "effectiveDate": "soon"]]
            },
            mentions: "entries[0].statusReports[0].effectiveDate is not a date"
        ),
        EntryProblem(
            F.entryChange("root certificate not base64", inStatement: true) {
                $0["attestationRootCertificates"] = ["%%%"]
            },
            mentions: "entries[0].metadataStatement.attestationRootCertificates[0] is not a standard base64 DER"
        ),
        EntryProblem(
            F.entryChange("root certificate not DER", inStatement: true) {
                $0["attestationRootCertificates"] = ["MAA="]
            },
            mentions: "entries[0].metadataStatement.attestationRootCertificates[0] is not a standard base64 DER"
        ),
        EntryProblem(
            F.entryChange("root certificate not text", inStatement: true) { $0["attestationRootCertificates"] = [1] },
            mentions:
                "entries[0] is malformed: wrong type at entries[0].metadataStatement.attestationRootCertificates[0]"
        ),
        EntryProblem(
            F.entryChange("statement for another AAGUID", inStatement: true) {
                $0["aaguid"] = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"
            },
            mentions: "entries[0].metadataStatement.aaguid differs from entries[0].aaguid"
        ),
        EntryProblem(
            F.entryChange("empty description", inStatement: true) { $0["description"] = "" },
            mentions: "entries[0].metadataStatement.description must be 1 to 4096 bytes"
        ),
    ]

    @Test(
        "§3.1.1: an entry of the wrong shape is set aside with its reason; its model is unusable, the others usable",
        arguments: malformedEntries
    )
    func malformedEntry(_ problem: EntryProblem) async throws {
        let service = try TestMetadataService()
        let other = [UInt8](repeating: 0xBB, count: 16)
        var payload = F.payload(entries: [
            try TestMetadataService.entry(aaguid: F.aaguid, roots: []),
            try TestMetadataService.entry(aaguid: other, roots: []),
        ])
        problem.change.apply(&payload)
        let blob = try await F.load(try service.blob(payload: payload), from: service)

        #expect(blob.unusableEntries.count == 1)
        let unusable = try #require(blob.unusableEntries.first)
        #expect(unusable.index == 0)
        #expect(unusable.reason.contains(problem.mentions), "\(unusable.reason)")
        let aaguid = try AAGUID(bytes: F.aaguid)
        #expect(unusable.aaguid == (problem.aaguidReadable ? aaguid : nil))
        switch blob.lookup(aaguid: aaguid) {
        case .unusable(let reason):
            #expect(problem.aaguidReadable)
            #expect(reason.contains("its entry, entries[0], is set aside: \(problem.mentions)"), "\(reason)")
        case .absent: #expect(!problem.aaguidReadable)
        case .found: Issue.record("a set-aside entry was found")
        }
        #expect(blob.entries.count == 1)
        #expect(blob.lookup(aaguid: try AAGUID(bytes: other)).entry != nil)
    }

    @Test("An AAGUID listed by two entries is ambiguous: both entries are set aside and the model is unusable")
    func duplicateAAGUID() async throws {
        let service = try TestMetadataService()
        let aaguidEntry = try TestMetadataService.entry(aaguid: F.aaguid, roots: [])
        let other = try TestMetadataService.entry(aaguid: [UInt8](repeating: 0xBB, count: 16), roots: [])
        let blob = try await F.load(try service.blob(entries: [aaguidEntry, other, aaguidEntry]), from: service)

        let aaguid = try AAGUID(bytes: F.aaguid)
        #expect(blob.unusableEntries.map(\.index) == [0, 2])
        #expect(blob.unusableEntries.allSatisfy { $0.aaguid == aaguid })
        #expect(blob.unusableEntries[0].reason == "its AAGUID \(aaguid) is also listed by entries[2]")
        #expect(blob.unusableEntries[1].reason == "its AAGUID \(aaguid) is also listed by entries[0]")
        #expect(
            blob.lookup(aaguid: aaguid).reasonIfUnusable
                == "it is listed by more than one entry (entries[0], entries[2])"
        )
        #expect(blob.entries.map(\.aaguid) == [try AAGUID(bytes: [UInt8](repeating: 0xBB, count: 16))])

        // Listed seven times: the reasons name five entries and count the rest.
        let many = try await F.load(try service.blob(entries: Array(repeating: aaguidEntry, count: 7)), from: service)
        #expect(
            many.lookup(aaguid: aaguid).reasonIfUnusable
                == "it is listed by more than one entry (entries[0], entries[1], entries[2], entries[3], entries[4] and 2 more)"
        )
        #expect(
            many.unusableEntries[0].reason
                == "its AAGUID \(aaguid) is also listed by entries[1], entries[2], entries[3], entries[4], entries[5] and 1 more"
        )
    }

    @Test("A key identifier listed by two entries (in either case) sets both aside, with every model they list")
    func duplicateKeyIdentifier() async throws {
        let service = try TestMetadataService()
        let shared = String(repeating: "0f", count: 20)
        let own = String(repeating: "1e", count: 20)
        let first = try TestMetadataService.entry(aaguid: F.aaguid, keyIdentifiers: [shared], roots: [])
        // The second lists it in upper case, and another identifier of its own.
        let second = try TestMetadataService.entry(keyIdentifiers: [own, shared.uppercased()], roots: [])
        let blob = try await F.load(try service.blob(entries: [first, second]), from: service)

        #expect(blob.entries.isEmpty)
        #expect(blob.unusableEntries.map(\.attestationCertificateKeyIdentifiers) == [[shared], [own, shared]])
        #expect(
            blob.unusableEntries[1].reason
                == "its attestation certificate key identifier \(shared) is also listed by entries[0]"
        )
        for lookup in [
            blob.lookup(attestationCertificateKeyIdentifier: shared.uppercased()),
            blob.lookup(attestationCertificateKeyIdentifier: own), blob.lookup(aaguid: try AAGUID(bytes: F.aaguid)),
        ] {
            #expect(lookup.reasonIfUnusable?.contains("entries[0]") == true, "\(lookup)")
        }
        // An entry that lists one identifier twice is not ambiguous.
        let repeated = try TestMetadataService.entry(keyIdentifiers: [own, own], roots: [])
        let single = try await F.load(try service.blob(entries: [repeated]), from: service)
        #expect(single.unusableEntries.isEmpty)
        #expect(single.lookup(attestationCertificateKeyIdentifier: own).entry != nil)
    }
}

extension MetadataBLOB.Lookup {
    /// The reason, when the model is unusable.
    var reasonIfUnusable: String? {
        if case .unusable(let reason) = self { reason } else { nil }
    }
}
