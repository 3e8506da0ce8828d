import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

extension API {
    /// `POST /v1/client/cross-platform/{id}/cancel` with `token` (the first device's poll token, unless another).
    func cancel(_ handoff: Handoff, token: String? = nil) async throws -> APIResponse {
        try await client(
            .post,
            "/v1/client/cross-platform/\(handoff.crossPlatformSessionId)/cancel",
            token: token ?? handoff.pollToken
        )
    }
}

extension CrossDeviceTests {
    @Test(
        "the first device cancels with its poll token: status and events say cancelled, and the phone can no longer claim, approve or be redeemed",
        arguments: StoreKind.available
    )
    func cancel(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            // Cancelled before any phone opened it: the stream ends with it, the link no longer works.
            let (session, handoff) = try await api.handedOffSession("vic", phone: &phone)
            let stream = try HandoffEventStream(port: try #require(api.client.port), handoff: handoff)
            #expect(try await stream.next() == "pending")
            for other in [session.clientToken, handoff.handoffToken, "pkp_guess"] {
                #expect(try await api.cancel(handoff, token: other).status == .unauthorized)
            }
            let cancelled = try await api.cancel(handoff)
            #expect(cancelled.status == .ok, "\(cancelled)")
            #expect(try cancelled.json().object?["status"]?.string == "cancelled")
            #expect(try await stream.next() == "cancelled")
            #expect(try await stream.next() == nil, "the stream ends at a cancellation")
            #expect(try await api.handoffStatus(handoff) == "cancelled")
            expectError(try await api.resume(handoff.handoffToken), "HANDOFF_CANCELLED", .gone)
            #expect(try await api.cancel(handoff).status == .ok, "cancelling again answers the same")
            #expect(try await api.redeem(session, handoff.pollToken).status != .ok)

            // Cancelled while the phone was signing: its completion is refused, and nothing is redeemed.
            let (signing, second) = try await api.handedOffSession("vic", phone: &phone, enrolled: true)
            let resumed = try await api.resume(second.handoffToken).expect(.ok, ResumedHandoff.self)
            _ = try await api.confirm(resumed, code: second.verificationCode).expect(.ok, JSONValue.self)
            let request = try await api.client(
                .post,
                Path.authenticationOptions(resumed.biometricPasskeySessionId),
                token: resumed.clientToken
            ).expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            #expect(try await api.cancel(second).status == .ok)
            expectError(
                try await api.completeSignIn(resumed.session, api.assertion(request, authenticator: &phone)),
                "HANDOFF_CANCELLED",
                .gone
            )
            expectError(try await api.reject(resumed), "HANDOFF_CANCELLED", .gone)
            expectError(try await api.confirm(resumed, code: second.verificationCode), "HANDOFF_CANCELLED", .gone)
            #expect(try await api.redeem(signing, second.pollToken).status != .ok)
            #expect(try await api.handoffStatus(second) == "cancelled")

            // Approved already: too late to cancel.
            let (_, third) = try await api.handedOffSession("vic", phone: &phone, enrolled: true)
            _ = try await api.approve(third, phone: &phone)
            expectError(try await api.cancel(third), "HANDOFF_ALREADY_APPROVED", .conflict)
            #expect(try await api.handoffStatus(third) == "approved")
        }
    }

    @Test(
        "the phone reads what a handoff asks without claiming it; the first claim still wins after any number of reads",
        arguments: StoreKind.available
    )
    func preview(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            let request =
                #"{"userId": "wes", "mode": "stepUp", "transaction": {"text": "Pay 5.00 EUR\nto Example Shop"}}"#
            let (_, handoff) = try await api.handedOffSession("wes", phone: &phone, request: request)
            for _ in 0..<2 {
                let preview = try await api.preview(handoff.handoffToken)
                #expect(preview.status == .ok, "\(preview)")
                let object = try preview.json().object
                #expect(object?["mode"]?.string == "stepUp")
                #expect(object?["transaction"]?.object?["text"]?.string == "Pay 5.00 EUR\nto Example Shop")
                #expect(object?["clientToken"] == nil, "a read gives nothing that drives the session")
            }
            #expect(try await api.handoffStatus(handoff) == "pending")
            expectError(try await api.preview("pkh_guess"), "HANDOFF_TOKEN_INVALID", .notFound)
            _ = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            expectError(try await api.preview(handoff.handoffToken), "HANDOFF_ALREADY_CLAIMED", .conflict)
        }
    }
}

extension API {
    func preview(_ token: String) async throws -> APIResponse {
        try await send(.post, "/v1/client/cross-platform/preview", body: JSON.encode(["handoffToken": token]))
    }
}
