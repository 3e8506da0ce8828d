import Foundation
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// FIDO Metadata Service §3.1.6: a verified BLOB's payload is read only when it has the specified shape, every
/// value within `MetadataBLOB.Limits`, and no model listed twice; anything else is METADATA_INVALID, never a crash.
struct MetadataPayloadTests {
    typealias F = MetadataFixture

    static let malformedPayloads: [F.Change] = [
        F.Change(name: "no legalHeader") { $0["legalHeader"] = nil },
        F.Change(name: "empty legalHeader") { $0["legalHeader"] = "" },
        F.Change(name: "negative no") { $0["no"] = -1 },
        F.Change(name: "no as text") { $0["no"] = "1" },
        F.Change(name: "nextUpdate with a time") { $0["nextUpdate"] = "2030-01-01T00:00:00Z" },
        F.Change(name: "nextUpdate not a day") { $0["nextUpdate"] = "2030-02-30" },
        F.Change(name: "entries not an array") { $0["entries"] = ["a": 1] },
        F.entryChange("entry without any identifier") { $0["aaguid"] = nil },
        F.entryChange("aaguid not a UUID") { $0["aaguid"] = "aaaaaaaa" },
        F.entryChange("key identifier not hex") {
            $0["attestationCertificateKeyIdentifiers"] = [String(repeating: "zz", count: 20)]
        },
        F.entryChange("key identifier too short") { $0["attestationCertificateKeyIdentifiers"] = ["abcd"] },
        F.entryChange("no timeOfLastStatusChange") { $0["timeOfLastStatusChange"] = nil },
        F.entryChange("status report without status") { $0["statusReports"] = [["effectiveDate": "2020-01-01"]] },
        F.entryChange("effectiveDate not a date") {
            $0["statusReports"] = [["status": "REVOKED", "effectiveDate": "soon"]]
        },
        F.entryChange("root certificate not base64", inStatement: true) { $0["attestationRootCertificates"] = ["%%%"] },
        F.entryChange("root certificate not DER", inStatement: true) { $0["attestationRootCertificates"] = ["MAA="] },
        F.entryChange("statement for another AAGUID", inStatement: true) {
            $0["aaguid"] = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"
        },
        F.entryChange("empty description", inStatement: true) { $0["description"] = "" },
    ]

    @Test("§3.1.6: a payload of the wrong shape is METADATA_INVALID", arguments: malformedPayloads)
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

    @Test("An AAGUID or a key identifier listed by two entries is METADATA_INVALID")
    func duplicates() async throws {
        let service = try TestMetadataService()
        let aaguidEntry = try TestMetadataService.entry(aaguid: F.aaguid, roots: [])
        let error = await #expect(throws: WebAuthnError.self) {
            try await F.load(try service.blob(entries: [aaguidEntry, aaguidEntry]), from: service)
        }
        #expect(error?.code == .metadataInvalid)
        #expect(error?.reason.contains("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa") == true)
        let identifier = String(repeating: "0f", count: 20)
        let first = try TestMetadataService.entry(keyIdentifiers: [identifier], roots: [])
        // Also when the second lists it in upper case.
        let second = try TestMetadataService.entry(keyIdentifiers: [identifier.uppercased()], roots: [])
        await #expect(throws: code(.metadataInvalid)) {
            try await F.load(try service.blob(entries: [first, second]), from: service)
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
        _ = try await F.load(blob, from: service, limits: limits)

        limits.maximumSize = blob.count - 1
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, limits: limits) }
        let changes: [(inout MetadataBLOB.Limits) -> Void] = [
            { $0.maximumEntries = 0 }, { $0.maximumStringLength = 99 }, { $0.maximumListLength = 1 },
            { $0.maximumCertificateLength = 100 },
        ]
        for change in changes {
            var limits = MetadataBLOB.Limits()
            change(&limits)
            await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, limits: limits) }
        }
        // The default size limit takes the real BLOB (a few MB) with room to spare.
        #expect(MetadataBLOB.Limits().maximumSize >= 16 * 1024 * 1024)
    }

    /// Every prefix, and random single-byte changes, of a real-shaped BLOB either verify or throw METADATA_INVALID.
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
