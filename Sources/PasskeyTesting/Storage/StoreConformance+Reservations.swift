import Foundation
import PasskeyStorage

extension StoreConformance {
    static let reservations: [StoreConformanceCheck] = [
        StoreConformanceCheck("a reservation is finalized or released with its flow") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            for finalize in [true, false] {
                let flow = Fixture.flow(userID: user.id, status: .completed)
                try await store.createFlow(flow)
                let credential = Fixture.credential(
                    userID: user.id,
                    name: "R\(finalize)",
                    status: .reserved,
                    reservedUntil: Fixture.now + 60,
                    flowID: flow.id
                )
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
                let status: FlowStatus = finalize ? .finalized : .aborted
                let settled = try await store.settleReservation(
                    flowID: flow.id,
                    finalize: finalize,
                    flowUpdate: FlowUpdate(status: status),
                    at: Fixture.now + 1
                )
                try require(settled?.id == credential.id, "settle must return the reserved credential")
                try require(try await store.flow(id: flow.id)?.status == status, "flow not updated with the settlement")
                let stored = try await store.credential(id: credential.id)
                try require(
                    finalize ? stored?.status == .active && stored?.reservedUntil == nil : stored == nil,
                    "reservation not settled"
                )
                try require(
                    try await store.settleReservation(
                        flowID: flow.id,
                        finalize: finalize,
                        flowUpdate: FlowUpdate(),
                        at: Fixture.now + 2
                    ) == nil,
                    "settling twice must return nil"
                )
            }
            let late = Fixture.flow(userID: user.id, status: .completed)
            try await store.createFlow(late)
            try await store.insertCredential(
                Fixture.credential(
                    userID: user.id,
                    name: "Late",
                    status: .reserved,
                    reservedUntil: Fixture.now + 60,
                    flowID: late.id
                ),
                maximumActive: 10,
                flowID: late.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            try require(
                try await store.settleReservation(
                    flowID: late.id,
                    finalize: true,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now + 61
                ) == nil,
                "an expired reservation cannot be finalized"
            )
        },
        StoreConformanceCheck("a reservation that expired unsettled is replaced by a new credential with its id") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let (oldFlow, reserved) = try await reserve(
                in: store,
                userID: user.id,
                name: "Phone",
                until: Fixture.now + 60
            )
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            var replacement = Fixture.credential(userID: user.id, name: "Phone", flowID: flow.id)
            replacement.id = reserved.id
            replacement.createdAt = Fixture.now + 60
            // At its end the reservation has expired.
            try await store.insertCredential(
                replacement,
                maximumActive: 1,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 60
            )
            try require(
                try await store.credential(id: reserved.id) == replacement,
                "the new credential must replace the expired reservation"
            )
            try require(
                try await store.flow(id: flow.id)?.status == .completed,
                "flow update not applied with the insert"
            )
            try require(
                try await store.credentials(userID: user.id) == [replacement],
                "the user must have the new credential only"
            )
            // Its flow cannot settle what replaced it, even at a time when the reservation was still live.
            for (finalize, time) in [(true, Fixture.now + 61), (true, Fixture.now + 30), (false, Fixture.now + 30)] {
                try require(
                    try await store.settleReservation(
                        flowID: oldFlow.id,
                        finalize: finalize,
                        flowUpdate: FlowUpdate(status: finalize ? .finalized : .aborted),
                        at: time
                    ) == nil,
                    "the replaced reservation's flow must find no live reservation"
                )
            }
            try require(
                try await store.flow(id: oldFlow.id)?.status == .completed,
                "a settlement that found nothing must leave its flow as it was"
            )
            try require(
                try await store.credential(id: reserved.id) == replacement,
                "the replaced reservation's flow must leave the new credential as it was"
            )
        },
        StoreConformanceCheck("a reservation that expired unsettled is replaced for another user too") { store in
            let owner = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let (oldFlow, reserved) = try await reserve(
                in: store,
                userID: owner.id,
                name: "Key",
                until: Fixture.now + 60
            )
            let flow = Fixture.flow(userID: other.id, status: .verifying)
            try await store.createFlow(flow)
            var replacement = Fixture.credential(
                userID: other.id,
                name: "Key",
                status: .reserved,
                reservedUntil: Fixture.now + 180,
                flowID: flow.id
            )
            replacement.id = reserved.id
            try await store.insertCredential(
                replacement,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 120
            )
            try require(try await store.credential(id: reserved.id) == replacement, "the new credential must be stored")
            try require(
                try await store.credentials(userID: owner.id).isEmpty,
                "the replaced reservation must be gone from its user"
            )
            try require(
                try await store.settleReservation(
                    flowID: oldFlow.id,
                    finalize: true,
                    flowUpdate: FlowUpdate(status: .finalized),
                    at: Fixture.now + 30
                ) == nil,
                "the replaced reservation's flow must find no live reservation"
            )
            let settled = try await store.settleReservation(
                flowID: flow.id,
                finalize: true,
                flowUpdate: FlowUpdate(status: .finalized),
                at: Fixture.now + 121
            )
            try require(
                settled?.userID == other.id && settled?.status == .active,
                "the new reservation must be finalized by its own flow"
            )
        },
        StoreConformanceCheck("a live reservation, an active or a revoked credential keeps its id") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let (oldFlow, reserved) = try await reserve(
                in: store,
                userID: user.id,
                name: "Phone",
                until: Fixture.now + 60
            )
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            var other = Fixture.credential(userID: user.id, name: "Other", flowID: flow.id)
            other.id = reserved.id
            let copy = other
            let insertCopy = { @Sendable (time: Date) in
                try await store.insertCredential(
                    copy,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: time
                )
            }
            try await requireStoreError(.credentialExists) { try await insertCopy(Fixture.now + 59) }
            try require(
                try await store.credential(id: reserved.id) == reserved,
                "a live reservation must stay as it was"
            )
            try require(try await store.flow(id: flow.id)?.status == .verifying, "a refused insert must leave its flow")
            let finalized = try await store.settleReservation(
                flowID: oldFlow.id,
                finalize: true,
                flowUpdate: FlowUpdate(status: .finalized),
                at: Fixture.now + 59
            )
            try require(finalized?.id == reserved.id, "a live reservation must still be finalized by its flow")
            try await requireStoreError(.credentialExists) { try await insertCopy(Fixture.now + 120) }
            try require(
                try await store.credential(id: reserved.id)?.status == .active,
                "a finalized credential must stay active"
            )
            _ = try await store.revokeCredential(id: reserved.id, at: Fixture.now + 130)
            try await requireStoreError(.credentialExists) { try await insertCopy(Fixture.now + 140) }
            try require(
                try await store.credential(id: reserved.id)?.status == .revoked,
                "a revoked credential must stay revoked"
            )
        },
        StoreConformanceCheck("a refused replacement leaves the expired reservation in place") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let (_, reserved) = try await reserve(in: store, userID: user.id, name: "Phone", until: Fixture.now + 60)
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            try await store.insertCredential(
                Fixture.credential(userID: user.id, name: "Laptop"),
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            var replacement = Fixture.credential(userID: user.id, name: "Laptop", flowID: flow.id)
            replacement.id = reserved.id
            // Refused for its name, and for a flow that does not exist: the reservation stays.
            try await requireStoreError(.nameTaken) {
                try await store.insertCredential(
                    replacement,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now + 120
                )
            }
            replacement.name = "Phone"
            replacement.nameKey = "phone"
            try await requireStoreError(.notFound) {
                try await store.insertCredential(
                    replacement,
                    maximumActive: 10,
                    flowID: Fixture.id("missing"),
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now + 120
                )
            }
            try require(
                try await store.credential(id: reserved.id) == reserved,
                "a refused insert must leave the expired reservation as it was"
            )
            try require(try await store.flow(id: flow.id)?.status == .verifying, "a refused insert must leave its flow")
        },
    ]

    /// Inserts a credential reserved until `until` for a new flow of the user, at ``Fixture/now``.
    private static func reserve(
        in store: any PasskeyStore,
        userID: String,
        name: String,
        until: Date
    ) async throws -> (FlowRecord, CredentialRecordRow) {
        let flow = Fixture.flow(userID: userID, status: .verifying)
        try await store.createFlow(flow)
        let credential = Fixture.credential(
            userID: userID,
            name: name,
            status: .reserved,
            reservedUntil: until,
            flowID: flow.id
        )
        try await store.insertCredential(
            credential,
            maximumActive: 10,
            flowID: flow.id,
            flowUpdate: FlowUpdate(status: .completed),
            at: Fixture.now
        )
        return (flow, credential)
    }
}
