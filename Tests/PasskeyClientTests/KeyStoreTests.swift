import Crypto
import Foundation
import Testing
import WebAuthn

@testable import PasskeyClient

@Suite("EncryptedFileKeyStore")
struct KeyStoreTests {
    static let protection = KeyStoreProtection.passphrase("correct horse battery staple", .insecureForTesting)

    static func entry(_ id: UInt8, rp: String = "example.com") -> KeyStoreEntry {
        KeyStoreEntry(
            credentialId: Base64URLBytes(Array(repeating: id, count: 16)),
            key: Base64URLBytes(Array(repeating: 0x42, count: 32)),
            rpId: rp,
            userHandle: [1, 2, 3],
            userName: "alice",
            userDisplayName: "Alice",
            userId: "alice",
            discoverable: true,
            signCount: 3,
            backupEligible: true,
            backupState: false,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            lastUsedAt: Date(timeIntervalSince1970: 1_700_000_100)
        )
    }

    @Test("entries round-trip and survive a restart (a new instance on the same file)")
    func roundTrip() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        let store = EncryptedFileKeyStore(path: path, protection: Self.protection)
        #expect(try await store.entries().isEmpty)
        #expect(!store.exists)
        try await store.update { entries in entries = [Self.entry(1), Self.entry(2)] }
        #expect(try await store.entries() == [Self.entry(1), Self.entry(2)])

        let restarted = EncryptedFileKeyStore(path: path, protection: Self.protection)
        #expect(try await restarted.entries() == [Self.entry(1), Self.entry(2)])
        try await restarted.update { entries in _ = entries.removeFirst() }
        #expect(try await EncryptedFileKeyStore(path: path, protection: Self.protection).entries() == [Self.entry(2)])
    }

    @Test("the file holds no secret in the clear and names its format and KDF")
    func fileFormat() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [Self.entry(1)] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""format":"swift-passkeys.key-store""#))
        #expect(text.contains(#""name":"scrypt""#) && text.contains(#""logN":10"#))
        #expect(!text.contains("alice"))
        #expect(!text.contains(Base64URL.encode(Array(repeating: 0x42, count: 32))))
    }

    @Test("the file and a folder it creates are owner-only (0600 and 0700)")
    func permissions() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("new/sub/keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [Self.entry(1)] }
        let file = try FileManager.default.attributesOfItem(atPath: path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: folder.file("new/sub"))
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test("a file others can read is refused with KEY_STORE_INSECURE")
    func insecure() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        let store = EncryptedFileKeyStore(path: path, protection: Self.protection)
        try await store.update { $0 = [Self.entry(1)] }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let error = await passkeyError { _ = try await store.entries() }
        #expect(error?.code == .keyStoreInsecure)
        #expect(error?.message.contains("chmod 600") == true)
    }

    @Test("a wrong passphrase gives KEY_STORE_WRONG_PASSPHRASE and leaves the file as it was")
    func wrongPassphrase() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [Self.entry(1)] }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let wrong = EncryptedFileKeyStore(path: path, protection: .passphrase("wrong", .insecureForTesting))
        #expect(await passkeyError { _ = try await wrong.entries() }?.code == .keyStoreWrongPassphrase)
        #expect(await passkeyError { try await wrong.update { $0 = [] } }?.code == .keyStoreWrongPassphrase)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        "a tampered ciphertext, header or tag gives KEY_STORE_CORRUPT, never an empty store",
        arguments: ["ciphertext", "nonce", "logN"]
    )
    func tampered(member: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [Self.entry(1)] }
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        switch member {
        case "logN":
            // A changed header fails the key check (the salt and parameters feed the key): reported, not ignored.
            var kdf = try #require(object["kdf"] as? [String: Any])
            kdf["logN"] = 11
            object["kdf"] = kdf
        default:
            var bytes = try Base64URL.decode(try #require(object[member] as? String))
            bytes[bytes.count / 2] ^= 0x01
            object[member] = Base64URL.encode(bytes)
        }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let error = await passkeyError {
            _ = try await EncryptedFileKeyStore(path: path, protection: Self.protection).entries()
        }
        #expect(
            error?.code == (member == "logN" ? .keyStoreWrongPassphrase : .keyStoreCorrupt),
            "\(String(describing: error))"
        )
    }

    @Test("damaged and foreign files are reported, and an update does not overwrite them")
    func foreign() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [(String, PasskeyError.Code)] = [
            ("not json at all", .keyStoreCorrupt),
            (#"{"format": "swift-passkeys.key-store", "version": 1"#, .keyStoreCorrupt),
            (#"{"credentials": []}"#, .keyStoreUnrecognized),
            (#"{"format": "swift-passkeys.key-store", "version": 2}"#, .keyStoreUnrecognized),
            (#"{"format": "swift-passkeys.key-store", "version": 1, "kdf": {"name": "argon2"}}"#, .keyStoreCorrupt),
            (
                #"{"format": "swift-passkeys.key-store", "version": 1, "kdf": {"name": "scrypt", "logN": 30, "r": 8, "p": 1}, "salt": "AAAAAAAAAAAAAAAAAAAAAA", "keyCheck": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "nonce": "AAAAAAAAAAAAAAAA", "ciphertext": "AAAAAAAAAAAAAAAAAAAAAA"}"#,
                .keyStoreCorrupt
            ),
        ]
        for (index, (contents, code)) in cases.enumerated() {
            let path = folder.file("foreign-\(index).json")
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let store = EncryptedFileKeyStore(path: path, protection: Self.protection)
            #expect(await passkeyError { _ = try await store.entries() }?.code == code, "\(contents)")
            #expect(await passkeyError { try await store.update { $0 = [Self.entry(1)] } }?.code == code, "\(contents)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
        }
    }

    @Test(
        "a failed write leaves the old file whole and no temporary file",
        arguments: [AtomicFile.Fault.afterPartialWrite, .beforeRename]
    )
    func atomicWrite(fault: AtomicFile.Fault) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [Self.entry(1)] }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let failing = EncryptedFileKeyStore(path: path, protection: Self.protection, fault: fault)
        #expect(
            await passkeyError { try await failing.update { $0.append(Self.entry(2)) } }?.code == .keyStoreUnavailable
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try folder.contents() == ["keys.json", "keys.json.lock"])
        #expect(try await EncryptedFileKeyStore(path: path, protection: Self.protection).entries() == [Self.entry(1)])
    }

    @Test("nothing is saved when the change throws")
    func failedChange() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = EncryptedFileKeyStore(path: folder.file("keys.json"), protection: Self.protection)
        try await store.update { $0 = [Self.entry(1)] }
        _ = await passkeyError {
            try await store.update { entries throws(PasskeyError) in
                entries = []
                throw PasskeyError(.passkeyNotFound, "no")
            }
        }
        #expect(try await store.entries() == [Self.entry(1)])
    }

    @Test("concurrent updates from two instances lose nothing")
    func concurrentInstances() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: Self.protection).update { $0 = [] }
        let first = EncryptedFileKeyStore(path: path, protection: Self.protection)
        let second = EncryptedFileKeyStore(path: path, protection: Self.protection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in UInt8(1)...8 {
                let store = id.isMultiple(of: 2) ? first : second
                group.addTask { try await store.update { $0.append(Self.entry(id)) } }
            }
            try await group.waitForAll()
        }
        #expect(try await first.entries().count == 8)
    }

    @Test("a key file protects a store; a passphrase does not open it, nor a key open a passphrase store")
    func keyFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let keyPath = folder.file("key")
        try Data(String(repeating: "ab", count: 32).utf8).write(to: URL(fileURLWithPath: keyPath))
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: .keyFile(path: keyPath)).update { $0 = [Self.entry(1)] }
        #expect(
            try await EncryptedFileKeyStore(
                path: path,
                protection: .key(SymmetricKey(data: Array(repeating: 0xAB, count: 32)))
            ).entries() == [Self.entry(1)]
        )
        #expect(
            await passkeyError {
                _ = try await EncryptedFileKeyStore(path: path, protection: Self.protection).entries()
            }?.code == .keyStoreWrongPassphrase
        )
        #expect(
            await passkeyError {
                _ = try await EncryptedFileKeyStore(path: path, protection: .key(SymmetricKey(size: .bits256)))
                    .entries()
            }?.code == .keyStoreWrongPassphrase
        )

        let passphraseStore = folder.file("passphrase.json")
        try await EncryptedFileKeyStore(path: passphraseStore, protection: Self.protection).update {
            $0 = [Self.entry(1)]
        }
        #expect(
            await passkeyError {
                _ = try await EncryptedFileKeyStore(path: passphraseStore, protection: .keyFile(path: keyPath))
                    .entries()
            }?.code == .keyStoreWrongPassphrase
        )

        try Data("short".utf8).write(to: URL(fileURLWithPath: keyPath))
        #expect(
            await passkeyError {
                try await EncryptedFileKeyStore(path: folder.file("other.json"), protection: .keyFile(path: keyPath))
                    .update { $0 = [] }
            }?.code == .invalidInput
        )
    }

    @Test("the recommended scrypt parameters make a store that opens again")
    func recommendedParameters() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        try await EncryptedFileKeyStore(path: path, protection: .passphrase("passphrase")).update {
            $0 = [Self.entry(1)]
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""logN":\#(ScryptParameters.recommended.logN)"#))
        #expect(
            try await EncryptedFileKeyStore(path: path, protection: .passphrase("passphrase")).entries() == [
                Self.entry(1)
            ]
        )
    }

    @Test("a memory key store applies changes as one unit")
    func memoryStore() async throws {
        let store = MemoryKeyStore()
        try await store.update { $0 = [Self.entry(1)] }
        _ = await passkeyError {
            try await store.update { entries throws(PasskeyError) in
                entries = []
                throw PasskeyError(.cancelled, "")
            }
        }
        #expect(try await store.entries() == [Self.entry(1)])
    }
}
