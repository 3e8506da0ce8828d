import Foundation
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// FIDO Metadata Service §3.2: a BLOB is read only when its signature and signing chain verify to the configured
/// root at the given time, it is fresh, and its payload has the shape of §3.1.6.
struct MetadataBLOBTests {
    typealias F = MetadataFixture

    @Test(
        "§3.2: a BLOB signed by a certificate the root issued verifies; its payload and entries are read",
        arguments: [TestMetadataService.Algorithm.es256, .rs256, .ps256]
    )
    func verifies(_ algorithm: TestMetadataService.Algorithm) async throws {
        let service = try TestMetadataService(algorithm: algorithm)
        let authority = try TestCertificateAuthority()
        let fido2 = try TestMetadataService.entry(
            aaguid: F.aaguid,
            description: "Test Key",
            roots: [authority.root],
            statuses: [.fidoCertified, .updateAvailable]
        )
        let u2f = try TestMetadataService.entry(keyIdentifiers: [String(repeating: "AB", count: 20)], roots: [])
        let uaf: [String: Any] = ["aaid": "FFFF#0001", "statusReports": [], "timeOfLastStatusChange": "2020-01-01"]
        let blob = try await F.load(try service.blob(payload: F.payload(entries: [fido2, uaf, u2f])), from: service)

        #expect(blob.legalHeader == "Test metadata.")
        #expect(blob.number == 7)
        #expect(blob.nextUpdate == Date(timeIntervalSince1970: 1_893_456_000))  // 2030-01-01T00:00:00Z
        #expect(blob.entries.count == 2, "the UAF entry is skipped")
        #expect(blob.unusableEntries.isEmpty)
        let entry = try #require(blob.lookup(aaguid: try AAGUID(bytes: F.aaguid)).entry)
        #expect(entry.description == "Test Key")
        #expect(entry.attestationRootCertificates == [authority.root])
        #expect(entry.statusReports.map(\.status) == [.fidoCertified, .updateAvailable])
        #expect(entry.latestStatusReport?.status == .updateAvailable)
        #expect(entry.statusReports.first?.effectiveDate == Date(timeIntervalSince1970: 1_577_836_800))
        guard case .absent = blob.lookup(aaguid: try AAGUID(bytes: [UInt8](repeating: 0xBB, count: 16))) else {
            Issue.record("an AAGUID the BLOB does not list was not absent")
            return
        }
        // Key identifiers are listed in lower case and found in either case.
        let u2fEntry = try #require(
            blob.lookup(attestationCertificateKeyIdentifier: String(repeating: "ab", count: 20)).entry
        )
        #expect(u2fEntry.aaguid == nil)
        #expect(blob.lookup(attestationCertificateKeyIdentifier: String(repeating: "AB", count: 20)).entry != nil)
        #expect(blob.entries[1].attestationCertificateKeyIdentifiers == [String(repeating: "ab", count: 20)])
    }

    @Test("§3.2 step 6: a BLOB whose signature does not verify is METADATA_INVALID")
    func badSignature() async throws {
        let service = try TestMetadataService()
        var blob = try service.blob(entries: [])
        // A character inside the signature: change the bits it encodes.
        blob[blob.count - 10] = blob[blob.count - 10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
        // Signed by another service's key, with this service's certificate.
        let other = try TestMetadataService()
        let forged = other.sign(payloadJSON: Array("{}".utf8), header: service.x5cHeader)
        await #expect(throws: code(.metadataInvalid)) { try await F.load(forged, from: service) }
    }

    @Test("§3.2 steps 4–5: a signing chain to another root than the configured ones is METADATA_INVALID")
    func wrongRoot() async throws {
        let service = try TestMetadataService()
        let other = try TestMetadataService()
        let blob = try service.blob(entries: [])
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, roots: [other.root]) }
        // Among several roots, the right one is found.
        _ = try await F.load(blob, from: service, roots: [other.root, service.root])
        // No root at all is refused, not accepted.
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service, roots: []) }
    }

    @Test("§3.2 steps 4–5: a signing certificate that has expired at the given time is METADATA_INVALID")
    func expiredSigningCertificate() async throws {
        let expiry = Fixture.now.addingTimeInterval(-86_400)
        let service = try TestMetadataService(signingCertificateNotAfter: expiry)
        let blob = try service.blob(entries: [])
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
        _ = try await F.load(blob, from: service, at: expiry.addingTimeInterval(-60))
    }

    @Test("§3.2 step 3: after the day of nextUpdate the BLOB is METADATA_STALE, unless stale BLOBs are allowed")
    func stale() async throws {
        let service = try TestMetadataService()
        let blob = try service.blob(entries: [], nextUpdate: "2025-06-01")
        let nextUpdate = Date(timeIntervalSince1970: 1_748_736_000)  // 2025-06-01T00:00:00Z
        // Fresh through the whole day of nextUpdate.
        for time in [nextUpdate.addingTimeInterval(-1), nextUpdate, nextUpdate.addingTimeInterval(86_399)] {
            #expect(try await !F.load(blob, from: service, at: time).isStale(at: time))
        }
        let later = nextUpdate.addingTimeInterval(86_400)
        await #expect(throws: code(.metadataStale)) { try await F.load(blob, from: service, at: later) }
        let allowed = try await F.load(blob, from: service, at: later, allowStale: true)
        #expect(allowed.isStale(at: later))
    }

    @Test("§3.2 step 5: without x5c the signature must verify with a root's key")
    func withoutX5C() async throws {
        let service = try TestMetadataService()
        let blob = service.sign(
            payloadJSON: Array(#"{"legalHeader":"L","no":1,"nextUpdate":"2030-01-01","entries":[]}"#.utf8),
            header: ["x5c": NSNull()]
        )
        // The signing certificate as the trust anchor: its key signed.
        #expect(try await F.load(blob, from: service, roots: [service.signingCertificate]).number == 1)
        // The root did not sign it.
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
    }

    @Test("The JWS header's x5c holds at most five certificates; a longer chain is METADATA_INVALID")
    func chainTooLong() async throws {
        let service = try TestMetadataService()
        let certificate = Data(service.signingCertificate.derBytes).base64EncodedString()
        let five = service.sign(payloadJSON: Array("{}".utf8), header: ["x5c": Array(repeating: certificate, count: 5)])
        let six = service.sign(payloadJSON: Array("{}".utf8), header: ["x5c": Array(repeating: certificate, count: 6)])
        let error = await #expect(throws: WebAuthnError.self) { try await F.load(six, from: service) }
        #expect(error?.code == .metadataInvalid)
        #expect(error?.reason.contains("x5c must hold 0 to 5") == true)
        // Five pass the bound (and fail later, on the payload, which is not a BLOB payload).
        let bounded = await #expect(throws: WebAuthnError.self) { try await F.load(five, from: service) }
        #expect(bounded?.reason.contains("payload") == true)
    }

    @Test(
        "A BLOB that is not a compact JWS of a known algorithm (for its key) is METADATA_INVALID",
        arguments: [
            #"{"alg":"HS256"}"#, #"{"alg":"none"}"#, #"{"alg":"RS256"}"#, #"{"alg":"ES384"}"#, #"{"crit":["exp"]}"#,
            #"{"x5u":"https://mds.example/chain.pem"}"#, #"{"x5c":["not base64!"]}"#, #"{"x5c":["MAA="]}"#,
            #"{"x5c":"MAA="}"#, #"{"alg":7}"#,
        ]
    )
    func malformedJWS(_ header: String) async throws {
        let service = try TestMetadataService()
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        let blob = service.sign(payloadJSON: Array("{}".utf8), header: fields)
        await #expect(throws: code(.metadataInvalid)) { try await F.load(blob, from: service) }
    }
}

extension TestMetadataService {
    /// A header carrying this service's signing certificate, for BLOBs another key signs.
    var x5cHeader: [String: Any] { ["x5c": [Data(signingCertificate.derBytes).base64EncodedString()]] }
}
