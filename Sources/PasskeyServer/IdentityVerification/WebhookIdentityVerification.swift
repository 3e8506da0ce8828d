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
struct WebhookIdentityVerification: IdentityVerificationProvider {
    let settings: ServerConfiguration.IdentityVerification.Webhook

    /// How long the vendor has to answer, and how large its answer may be.
    static let timeout: TimeInterval = 10
    static let maximumResponseSize = 16 * 1024

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
        var request = URLRequest(url: url, timeoutInterval: Self.timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(timestamp), forHTTPHeaderField: WebhookSignature.timestampHeader)
        request.setValue(
            WebhookSignature(secret: settings.secret).sign(body, timestamp: timestamp),
            forHTTPHeaderField: WebhookSignature.signatureHeader
        )
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw APIError.identityVerificationUnavailable
        }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
            data.count <= Self.maximumResponseSize,
            let created = try? JSONDecoder().decode(Created.self, from: data),
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
