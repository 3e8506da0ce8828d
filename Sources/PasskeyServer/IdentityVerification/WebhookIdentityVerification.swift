import Foundation
import PasskeyStorage

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `identityVerification.provider: webhook`: a vendor reached over HTTP (docs/server.md shows both shapes).
///
/// To create a run the server POSTs `{"workflowRunId", "purpose", "userId", "expiresAt"}` to `webhook.url`, signed
/// (``WebhookSignature``); the vendor answers 2xx `{"idvToken", "vendorReference"?}`. Later the vendor reports the
/// decision to `POST /v1/identity-verification/webhook`, signed the same way.
///
/// Every call is an ``OutboundCall`` (bounded in time and size, no redirects), and at most
/// ``maximumConcurrentCalls`` are in flight in this process: beyond that a start is `IDENTITY_VERIFICATION_BUSY`.
struct WebhookIdentityVerification: IdentityVerificationProvider {
    let settings: ServerConfiguration.IdentityVerification.Webhook
    let gate = OutboundCallGate(limit: Self.maximumConcurrentCalls)

    /// How long the vendor has to answer, all of it, and how large its answer may be.
    static let timeout: Duration = .seconds(10)
    static let maximumResponseSize = 16 * 1024
    static let maximumConcurrentCalls = 16

    struct CreateRun: Encodable {
        let workflowRunId: String
        let purpose: String
        let userId: String
        let expiresAt: Date
    }

    struct Created: Decodable {
        let idvToken: String
        let vendorReference: String?
    }

    func start(_ run: WorkflowRunRecord) async throws(APIError) -> IdentityVerificationStart {
        guard let url = URL(string: settings.url) else { throw APIError.identityVerificationUnavailable }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let create = CreateRun(
            workflowRunId: run.id,
            purpose: run.purpose.rawValue,
            userId: run.userID,
            expiresAt: run.expiresAt
        )
        guard let encoded = try? encoder.encode(create) else { throw APIError.identityVerificationUnavailable }
        let body = Array(encoded)
        let timestamp = Int(Date().timeIntervalSince1970)
        var request = URLRequest(url: url, timeoutInterval: Self.timeout.timeInterval)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(timestamp), forHTTPHeaderField: WebhookSignature.timestampHeader)
        request.setValue(
            WebhookSignature(secret: settings.secret).sign(body, timestamp: timestamp),
            forHTTPHeaderField: WebhookSignature.signatureHeader
        )
        guard gate.enter() else { throw APIError.identityVerificationBusy }
        let outcome = await OutboundCall(
            request: request,
            timeout: Self.timeout,
            maximumSize: Self.maximumResponseSize
        ).send()
        gate.leave()
        guard case .success(let answer) = outcome, (200..<300).contains(answer.status),
            let created = try? JSONDecoder().decode(Created.self, from: answer.body),
            (1...4096).contains(created.idvToken.utf8.count),
            (created.vendorReference?.utf8.count ?? 0) <= 256
        else { throw APIError.identityVerificationUnavailable }
        return IdentityVerificationStart(
            idvToken: created.idvToken,
            vendorReference: created.vendorReference,
            decision: nil
        )
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
