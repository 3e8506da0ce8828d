import Foundation
import PasskeyStorage

extension StoreConformance {
    /// Inserting a registration's credential (``CeremonyStore``).
    static let credentialInsertion: [StoreConformanceCheck] = [
        StoreConformanceCheck("a credential round-trips with every field, and completes its flow") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            var credential = Fixture.credential(userID: user.id, flowID: flow.id)
            credential.signCount = 4_000_000_000
            credential.lastUsedAt = Fixture.now + 5
            try await store.insertCredential(
                credential,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed, payload: [1, 2]),
                at: Fixture.now
            )
            try require(try await store.credential(id: credential.id) == credential, "stored credential differs")
            let updated = try await store.flow(id: flow.id)
            try require(
                updated?.status == .completed && updated?.payload == [1, 2],
                "flow update not applied with the insert"
            )
        },
        StoreConformanceCheck("a known credential id is refused") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let credential = Fixture.credential(userID: user.id)
            try await store.insertCredential(
                credential,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            var copy = credential
            copy.name = "Other"
            copy.nameKey = "other"
            try await requireStoreError(.credentialExists) {
                try await store.insertCredential(
                    copy,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
        },
        StoreConformanceCheck("a credential for an unknown user is refused, and its flow left as it was") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            let credential = Fixture.credential(userID: Fixture.id("missing"), flowID: flow.id)
            try await requireStoreError(.notFound) {
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed, payload: [1, 2]),
                    at: Fixture.now
                )
            }
            try require(try await store.credential(id: credential.id) == nil, "the credential must not be stored")
            try require(try await store.flow(id: flow.id) == flow, "a refused insert must leave its flow as it was")
        },
        StoreConformanceCheck("the per-user limit counts active and unexpired reserved credentials only") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let insert = { @Sendable (credential: CredentialRecordRow) in
                try await store.insertCredential(
                    credential,
                    maximumActive: 2,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            try await insert(Fixture.credential(userID: user.id, name: "A"))
            try await insert(
                Fixture.credential(userID: user.id, name: "Expired", status: .reserved, reservedUntil: Fixture.now - 1)
            )
            try await insert(
                Fixture.credential(userID: user.id, name: "B", status: .reserved, reservedUntil: Fixture.now + 60)
            )
            try await requireStoreError(.limitReached) {
                try await insert(Fixture.credential(userID: user.id, name: "C"))
            }
            let revoked = try await store.credentials(userID: user.id).first { $0.name == "A" }
            _ = try await store.revokeCredential(id: revoked!.id, at: Fixture.now)
            // The revocation reset the user: its flow ended with it, and "B"'s reservation was released. A new flow
            // has the slot "A" freed.
            let later = Fixture.flow(userID: user.id)
            try await store.createFlow(later)
            try await store.insertCredential(
                Fixture.credential(userID: user.id, name: "C"),
                maximumActive: 1,
                flowID: later.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
        },
    ]

    /// Credentials on record: names, listing, use and revocation (``CredentialStore``).
    static let credentials: [StoreConformanceCheck] = [
        StoreConformanceCheck("names are unique per user by name key, and free again once revoked") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let first = Fixture.credential(userID: user.id, name: "Phone")
            try await store.insertCredential(
                first,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            try await requireStoreError(.nameTaken) {
                try await store.insertCredential(
                    Fixture.credential(userID: user.id, name: "PHONE"),
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            try await store.insertCredential(
                Fixture.credential(userID: other.id, name: "Phone"),
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            let second = Fixture.credential(userID: user.id, name: "Laptop")
            try await store.insertCredential(
                second,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            try await requireStoreError(.nameTaken) {
                _ = try await store.renameCredential(id: second.id, name: "Phone", nameKey: "phone", at: Fixture.now)
            }
            let renamed = try await store.renameCredential(
                id: second.id,
                name: "Work laptop",
                nameKey: "work laptop",
                at: Fixture.now
            )
            try require(renamed?.name == "Work laptop", "rename not applied")
            _ = try await store.revokeCredential(id: first.id, at: Fixture.now)
            let reused = try await store.renameCredential(
                id: second.id,
                name: "Phone",
                nameKey: "phone",
                at: Fixture.now
            )
            try require(reused?.name == "Phone", "a revoked credential's name must be free")
        },
        StoreConformanceCheck("credentials created at the same time are listed in the byte order of their ids") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            // Ids of different lengths, one a prefix of another, inserted in descending order; and one created
            // earlier, inserted last.
            let prefix = Fixture.bytes(16)
            var ids = [prefix, prefix + [0], prefix + [0, 0]] + (0..<6).map { _ in Fixture.bytes() }
            ids.sort { $0.lexicographicallyPrecedes($1) }
            var credentials = ids.reversed().enumerated().map { index, id in
                var credential = Fixture.credential(userID: user.id, name: "Key \(index)")
                credential.id = id
                credential.createdAt = Fixture.now + 10
                return credential
            }
            var earliest = Fixture.credential(userID: user.id, name: "Earliest")
            earliest.id = [0xFF] + Fixture.bytes()
            credentials.append(earliest)
            for credential in credentials {
                try await store.insertCredential(
                    credential,
                    maximumActive: 20,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            try require(
                try await store.credentials(userID: user.id).map(\.id) == [earliest.id] + ids,
                "credentials must be listed oldest first, then in the byte order of their ids"
            )
        },
        StoreConformanceCheck("use, revocation and listing") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let a = Fixture.credential(userID: user.id, name: "A")
            var b = Fixture.credential(userID: user.id, name: "B")
            b.createdAt = Fixture.now + 1
            for credential in [a, b] {
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            let recorded = try await store.recordSignIn(
                id: a.id,
                expectedSignCount: 0,
                signCount: 7,
                backupState: false,
                at: Fixture.now + 10
            )
            let used = try await store.credential(id: a.id)
            try require(
                used?.signCount == 7 && used?.backupState == false && used?.lastUsedAt == Fixture.now + 10,
                "use not recorded"
            )
            try require(recorded == used, "the use must return the updated record: \(String(describing: recorded))")
            try require(
                try await store.credentials(userID: user.id).map(\.name) == ["A", "B"],
                "listing must be oldest first"
            )
            let revoked = try await store.revokeCredential(id: a.id, at: Fixture.now + 20)
            try require(
                revoked?.status == .revoked && revoked?.revokedAt == Fixture.now + 20,
                "revocation not returned"
            )
            try require(
                try await store.revokeCredential(id: a.id, at: Fixture.now + 30) == nil,
                "revoking twice must return nil"
            )
            try require(
                try await store.credentials(userID: user.id).map(\.name) == ["B"],
                "revoked credentials must not be listed"
            )
            try require(
                try await store.credential(id: a.id)?.status == .revoked,
                "a revoked credential stays readable by id"
            )
            try require(
                try await store.renameCredential(id: a.id, name: "X", nameKey: "x", at: Fixture.now) == nil,
                "renaming a revoked credential must return nil"
            )
        },
    ]
}
