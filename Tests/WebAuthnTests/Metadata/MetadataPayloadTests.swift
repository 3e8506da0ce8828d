import Foundation
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// FIDO Metadata Service §3.1.6: a verified BLOB's payload is read only when its own members have the specified
/// shape within `MetadataBLOB.Limits`; anything else is METADATA_INVALID, never a crash. (A problem of one entry only
/// sets that entry aside: `MetadataEntryTests`.)
struct MetadataPayloadTests {
    typealias F = MetadataFixture

    static let malformedPayloads: [F.Change] = [
        F.Change(name: "no legalHeader") { $0["legalHeader"] = nil },
        F.Change(name: "empty legalHeader") { $0["legalHeader"] = "" },
        F.Change(name: "negative no") { $0["no"] = -1 },
        F.Change(name: "no as text") { $0["no"] = "1" },
        F.Change(name: "nextUpdate with a time") { $0["nextUpdate"] = "2030-01-01T00:00:00Z" },
        F.Change(name: "nextUpdate not a day") { $0["nextUpdate"] = "2030-02-30" },
        F.Change(name: "no entries") { $0["entries"] = nil },
        F.Change(name: "entries not an array") { $0["entries"] = ["a": 1] },
    ]

    @Test("§3.1.6: a payload whose own members have the wrong shape is METADATA_INVALID", arguments: malformedPayloads)
    func malformedPayload(_ change: F.Change) async throws {
        let service = try TestMetadataService()
        var payload = F.payload(entries: [try TestMetadataService.entry(aaguid: F.aaguid, roots: [])])
        _ = try await F.load(try service.blob(payload: payload), from: service)
        change.apply(&payload)
        let blob = try service.blob(payload: payload)
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
    }

    @Test("A payload that is not JSON is METADATA_INVALID, after its signature verified")
    func payloadNotJSON() async throws {
        let service = try TestMetadataService()
        for payload in ["", "[]", "{", "null", #"{"entries":[]}"#] {
            let blob = service.sign(payloadJSON: Array(payload.utf8))
            await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
        }
    }

    @Test("Each limit is enforced: size, entries, text length, list length, certificate length")
    func limits() async throws {
        let service = try TestMetadataService()
        let authority = try TestCertificateAuthority()
        let entry = try TestMetadataService.entry(
            aaguid: F.aaguid,
            description: String(repeating: "d", count: 100),
            roots: [authority.root],
            statuses: [.fidoCertified, .fidoCertifiedL1]
        )
        let blob = try service.blob(entries: [entry])
        var limits = MetadataBLOB.Limits()
        #expect(try await F.load(blob, from: service, limits: limits).unusableEntries.isEmpty)

        // Over a limit of the BLOB itself: METADATA_INVALID.
        limits.maximumSize = blob.count - 1
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, limits: limits) }
        limits = MetadataBLOB.Limits()
        limits.maximumEntries = 0
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, limits: limits) }
        // Over a limit of one entry: that entry is set aside, naming the member.
        let changes: [(String, (inout MetadataBLOB.Limits) -> Void)] = [
            ("description must be 1 to 99 bytes", { $0.maximumStringLength = 99 }),
            ("statusReports has 2 items; the limit is 1", { $0.maximumListLength = 1 }),
            ("attestationRootCertificates[0] is longer than 100 characters", { $0.maximumCertificateLength = 100 }),
        ]
        for (mentions, change) in changes {
            var limits = MetadataBLOB.Limits()
            change(&limits)
            let loaded = try await F.load(blob, from: service, limits: limits)
            #expect(loaded.entries.isEmpty)
            #expect(loaded.unusableEntries.first?.reason.contains(mentions) == true, "\(loaded.unusableEntries)")
        }
        // The default size limit takes the real BLOB (a few MB) with room to spare.
        #expect(MetadataBLOB.Limits().maximumSize >= 16 * 1024 * 1024)
    }

    /// Every prefix, and random single-byte changes, of a real-shaped BLOB either verify (perhaps with its entry set
    /// aside) or throw METADATA_INVALID.
    @Test func survivesTruncationAndMutation() async throws {
        let service = try TestMetadataService()
        let blob = try service.blob(entries: [try TestMetadataService.entry(aaguid: F.aaguid, roots: [])])
        var generator = SplitMix64(seed: 0x3D5)
        var samples = stride(from: 0, to: blob.count, by: 13).map { Array(blob[..<$0]) }
        for _ in 0..<200 {
            var mutated = blob
            mutated[Int.random(in: 0..<blob.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            samples.append(mutated)
        }
        for sample in samples {
            do {
                _ = try await F.load(sample, from: service)
            } catch {
                #expect((error as? WebAuthnError)?.code == .metadataInvalid, "\(error)")
            }
        }
    }
}
