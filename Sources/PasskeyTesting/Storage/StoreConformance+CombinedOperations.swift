import Foundation
import PasskeyStorage

extension StoreConformance {
    /// One read where a request needs two (``CredentialStore``).
    static let combinedReads: [StoreConformanceCheck] = [
        StoreConformanceCheck("a user with their credentials: the same as the two reads, revoked ones left out") {
            store in
            try require(try await store.userWithCredentials(id: Fixture.id("user")) == nil, "unknown user")
            let user = try await store.createUserIfAbsent(Fixture.user())
            let alone = try await store.userWithCredentials(id: user.id)
            try require(
                alone == UserCredentials(user: user, credentials: []),
                "a user without credentials: \(String(describing: alone))"
            )
            for name in ["Phone", "Laptop", "Key"] {
                let flow = Fixture.flow(userID: user.id)
                try await store.createFlow(flow)
                try await store.insertCredential(
                    Fixture.credential(userID: user.id, name: name),
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            let listed = try await store.credentials(userID: user.id)
            _ = try await store.revokeCredential(id: listed[1].id, at: Fixture.now + 1)
            let both = try await store.userWithCredentials(id: user.id)
            let expected = UserCredentials(user: user, credentials: try await store.credentials(userID: user.id))
            try require(both == expected, "expected \(expected), got \(String(describing: both))")
            try require(both?.credentials.count == 2, "the revoked credential must be left out")
        },
        StoreConformanceCheck("a credential with its owner: the same as the two reads") { store in
            try require(try await store.credentialWithOwner(id: Fixture.bytes()) == nil, "unknown credential")
            let credential = try await Fixture.activeCredential(in: store, signCount: 3)
            let read = try await store.credentialWithOwner(id: credential.id)
            let owner = try await store.user(id: credential.userID)
            try require(
                read?.credential == credential && read?.owner == owner && owner != nil,
                "expected \(credential) of \(String(describing: owner)), got \(String(describing: read))"
            )
        },
    ]

    /// A verified sign-in, the credential's use and the flow's update in one transaction (``CeremonyStore``).
    static let authenticationRecording: [StoreConformanceCheck] = [
        StoreConformanceCheck("recording a sign-in writes the use and the flow together") { store in
            let (credential, flow) = try await Fixture.signIn(in: store, signCount: 4)
            let recording = try await store.recordAuthentication(
                CredentialUse(credentialID: credential.id, expectedSignCount: 4, signCount: 9, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: FlowUpdate(status: .completed, payload: Array("done".utf8)),
                at: Fixture.now + 5
            )
            let stored = try await store.credential(id: credential.id)
            let storedFlow = try await store.flow(id: flow.id)
            try require(
                stored?.signCount == 9 && stored?.backupState == false && stored?.lastUsedAt == Fixture.now + 5,
                "the use must be written: \(String(describing: stored))"
            )
            try require(
                storedFlow?.status == .completed && storedFlow?.payload == Array("done".utf8),
                "the flow must be completed: \(String(describing: storedFlow))"
            )
            guard case .recorded(let recorded, let recordedFlow) = recording else {
                throw StoreConformanceFailure(description: "expected .recorded, got \(recording)")
            }
            try require(
                recorded == stored && recordedFlow == storedFlow,
                "the records returned must be the stored ones"
            )
        },
        StoreConformanceCheck("recording a sign-in whose flow moved on writes nothing") { store in
            let (credential, flow) = try await Fixture.signIn(in: store, signCount: 4)
            let recording = try await store.recordAuthentication(
                CredentialUse(credentialID: credential.id, expectedSignCount: 4, signCount: 9, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.optionsIssued],
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 5
            )
            try require(recording == .flowNotUpdated, "expected .flowNotUpdated, got \(recording)")
            try require(try await store.credential(id: credential.id) == credential, "the use must not be written")
            try require(try await store.flow(id: flow.id) == flow, "the flow must be unchanged")
            let expired = try await store.recordAuthentication(
                CredentialUse(credentialID: credential.id, expectedSignCount: 4, signCount: 9, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: FlowUpdate(status: .completed),
                at: flow.expiresAt
            )
            try require(expired == .flowNotUpdated, "an expired flow: expected .flowNotUpdated, got \(expired)")
            try require(try await store.credential(id: credential.id) == credential, "the use must not be written")
        },
        StoreConformanceCheck("recording a sign-in with a stale counter or a revoked credential writes nothing") {
            store in
            let (credential, flow) = try await Fixture.signIn(in: store, signCount: 4)
            let stale = try await store.recordAuthentication(
                CredentialUse(credentialID: credential.id, expectedSignCount: 3, signCount: 9, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 5
            )
            try require(stale == .credentialNotRecorded(current: credential), "a stale counter: got \(stale)")
            try require(try await store.flow(id: flow.id) == flow, "the flow must be unchanged")
            let revoked = try await store.revokeCredential(id: credential.id, at: Fixture.now + 6)
            // A revocation resets the user: their flow in flight ended with it (see `PasskeyStore`).
            let ended = try await store.flow(id: flow.id)
            try require(ended?.status == .aborted, "the revocation must end the user's flow in flight")
            let refused = try await store.recordAuthentication(
                CredentialUse(credentialID: credential.id, expectedSignCount: 4, signCount: 9, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 7
            )
            try require(refused == .credentialNotRecorded(current: revoked), "a revoked credential: got \(refused)")
            try require(try await store.flow(id: flow.id) == ended, "the flow must be unchanged")
            let unknown = try await store.recordAuthentication(
                CredentialUse(credentialID: Fixture.bytes(), expectedSignCount: 0, signCount: 1, backupState: false),
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 7
            )
            try require(unknown == .credentialNotRecorded(current: nil), "an unknown credential: got \(unknown)")
        },
        StoreConformanceCheck("20 concurrent sign-ins recorded with one counter: exactly one is written") { store in
            let (credential, first) = try await Fixture.signIn(in: store, signCount: 7)
            var flows = [first]
            for _ in 1..<20 {
                let flow = Fixture.flow(userID: credential.userID, kind: .authentication, status: .verifying)
                try await store.createFlow(flow)
                flows.append(flow)
            }
            let outcomes = try await withThrowingTaskGroup(of: AuthenticationRecording.self) { group in
                for (index, flow) in flows.enumerated() {
                    group.addTask {
                        try await store.recordAuthentication(
                            CredentialUse(
                                credentialID: credential.id,
                                expectedSignCount: 7,
                                signCount: UInt32(8 + index),
                                backupState: true
                            ),
                            flowID: flow.id,
                            expectedStatuses: [.verifying],
                            flowUpdate: FlowUpdate(status: .completed),
                            at: Fixture.now + 1
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { outcome -> CredentialRecordRow? in
                if case .recorded(let credential, _) = outcome { return credential }
                return nil
            }
            try require(winners.count == 1, "\(winners.count) sign-ins were recorded; exactly one may")
            let stored = try await store.credential(id: credential.id)
            try require(stored == winners.first, "the counter stored must be the winner's")
            var completed = 0
            for flow in flows where try await store.flow(id: flow.id)?.status == .completed { completed += 1 }
            try require(completed == 1, "\(completed) flows were completed; only the winner's may be")
        },
    ]
}

extension Fixture {
    /// An active credential with `signCount` and an authentication flow of its user that is verifying.
    static func signIn(
        in store: any PasskeyStore,
        signCount: UInt32
    ) async throws -> (CredentialRecordRow, FlowRecord) {
        let credential = try await activeCredential(in: store, signCount: signCount)
        let flow = flow(userID: credential.userID, kind: .authentication, status: .verifying)
        try await store.createFlow(flow)
        return (credential, flow)
    }
}
