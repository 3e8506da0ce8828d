import Testing

@testable import WebAuthn

@Suite("TPM attestation: manufacturers")
struct TPMManufacturerTests {
    @Test("Every id is \"id:\" and eight upper-case hex digits, and none repeats")
    func wellFormed() {
        let hexDigits = Set("0123456789ABCDEF")
        for manufacturer in TPMManufacturer.known {
            #expect(manufacturer.id.hasPrefix("id:") && manufacturer.id.count == 11, "\(manufacturer.id)")
            #expect(manufacturer.id.dropFirst(3).allSatisfy(hexDigits.contains), "\(manufacturer.id)")
        }
        #expect(Set(TPMManufacturer.known.map(\.id)).count == TPMManufacturer.known.count)
    }

    @Test("Registered vendors are the registry's; only the two test ids are marked as tests")
    func testIdentifiers() {
        #expect(TPMManufacturer.registered.count == 29)
        #expect(TPMManufacturer.named("id:4E544300")?.name == "Nuvoton Technology")
        #expect(TPMManufacturer.named("id:FFFFF1D0")?.isTest == true)
        #expect(TPMManufacturer.named("id:00000000")?.isTest == true)
        #expect(TPMManufacturer.known.filter(\.isTest).count == 2)
        #expect(TPMManufacturer.named("id:4e544300") == nil)
        #expect(TPMManufacturer.named("4E544300") == nil)
    }
}
