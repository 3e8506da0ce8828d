import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PasskeyTesting
import Synchronization
import WebAuthn

/// A request that did not give the expected status, or could not be sent: the ceremony fails.
struct RequestFailure: Error, CustomStringConvertible {
    let step: Int
    /// A short, aggregatable description: `complete: 401 UNAUTHENTICATED`, `options: connection reset`.
    let summary: String
    var description: String { summary }
}

/// Counts every request the run sends and refuses those over the bound.
final class RequestBudget: Sendable {
    private let used = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes one request from the budget; false when it is spent.
    func take() -> Bool { used.add(1, ordering: .relaxed).newValue <= limit }
    var count: Int { min(used.load(ordering: .relaxed), limit) }
}

struct BudgetSpent: Error {}

/// The HTTP side of the ceremonies: JSON bodies over one shared `HTTPClient`.
struct CeremonyClient: Sendable {
    let http: HTTPClient
    let baseURL: String
    let apiKey: String
    let origin: String
    let rpID: String
    let timeout: TimeAmount
    let budget: RequestBudget

    // MARK: Bodies (DESIGN §3)

    struct NewRegistration: Encodable {
        let userId: String
        let userName: String
    }

    struct RegistrationAttempt: Decodable {
        let registrationAttemptId: String
        let clientToken: String
    }

    struct NewAuthentication: Encodable {
        struct Transaction: Codable {
            let text: String
        }
        let userId: String
        /// `stepUp` with a transaction, or nil (standard).
        let mode: String?
        let transaction: Transaction?
    }

    struct AuthenticationSession: Decodable {
        let biometricPasskeySessionId: String
        let clientToken: String
    }

    struct Options<PublicKey: Decodable>: Decodable {
        let publicKey: PublicKey
    }

    struct CompleteRegistration: Encodable {
        let credential: RegistrationResponseJSON
    }

    struct CompleteAuthentication: Encodable {
        let credential: AuthenticationResponseJSON
    }

    struct SignInCompletion: Decodable {
        let resultToken: String
    }

    struct Redeem: Encodable {
        let resultToken: String
    }

    struct Redeemed: Decodable {
        let userId: String
        let transaction: NewAuthentication.Transaction?
    }

    /// What a step-up sign-in approves: a payment of a different amount each time, so that each challenge commits
    /// to a text of its own.
    static func transactionText() -> String {
        "Pay \(Int.random(in: 1...99_999)).\(Int.random(in: 10...99)) EUR to Example Shop, invoice 2026-\(Int.random(in: 1000...9999))"
    }

    struct ErrorBody: Decodable {
        struct Detail: Decodable { let code: String }
        let error: Detail
    }

    // MARK: Ceremonies

    /// One registration of a new user; returns the authenticator that holds the new credential. `timings` gets the
    /// duration of each request that succeeded, with the time it ended.
    func register(userID: String, timings: inout [StepTiming]) async throws -> TestAuthenticator {
        let attempt = try await post(
            "/v1/registrations",
            bearer: apiKey,
            body: NewRegistration(userId: userID, userName: "\(userID)@example.com"),
            expect: 201,
            step: 0,
            as: RegistrationAttempt.self,
            timings: &timings
        )
        let options = try await post(
            "/v1/client/registrations/\(attempt.registrationAttemptId)/options",
            bearer: attempt.clientToken,
            body: nil as Redeem?,
            expect: 200,
            step: 1,
            as: Options<PublicKeyCredentialCreationOptionsJSON>.self,
            timings: &timings
        ).publicKey
        // The authenticator makes a new key pair, adopts the server's user handle and answers the challenge.
        let authenticator = TestAuthenticator(algorithm: .es256, userHandle: options.user.id.bytes)
        let credential = try authenticator.registrationResponse(
            challenge: options.challenge.bytes,
            origin: origin,
            rpID: rpID
        )
        _ = try await post(
            "/v1/client/registrations/\(attempt.registrationAttemptId)/complete",
            bearer: attempt.clientToken,
            body: CompleteRegistration(credential: credential),
            expect: 201,
            step: 2,
            as: Ignored.self,
            timings: &timings
        )
        return authenticator
    }

    /// One sign-in of `userID` with its authenticator (whose counter goes up by one); with `stepUp`, in step-up mode
    /// approving a transaction, which redeem must return.
    func signIn(
        userID: String,
        stepUp: Bool = false,
        authenticator: inout TestAuthenticator,
        timings: inout [StepTiming]
    ) async throws {
        let transaction = stepUp ? NewAuthentication.Transaction(text: Self.transactionText()) : nil
        let session = try await post(
            "/v1/authentications",
            bearer: apiKey,
            body: NewAuthentication(userId: userID, mode: stepUp ? "stepUp" : nil, transaction: transaction),
            expect: 201,
            step: 0,
            as: AuthenticationSession.self,
            timings: &timings
        )
        let options = try await post(
            "/v1/client/authentications/\(session.biometricPasskeySessionId)/options",
            bearer: session.clientToken,
            body: nil as Redeem?,
            expect: 200,
            step: 1,
            as: Options<PublicKeyCredentialRequestOptionsJSON>.self,
            timings: &timings
        ).publicKey
        let assertion = authenticator.authenticationResponse(
            challenge: options.challenge.bytes,
            origin: origin,
            rpID: rpID
        )
        let completion = try await post(
            "/v1/client/authentications/\(session.biometricPasskeySessionId)/complete",
            bearer: session.clientToken,
            body: CompleteAuthentication(credential: assertion),
            expect: 200,
            step: 2,
            as: SignInCompletion.self,
            timings: &timings
        )
        let result = try await post(
            "/v1/authentications/\(session.biometricPasskeySessionId)/redeem",
            bearer: apiKey,
            body: Redeem(resultToken: completion.resultToken),
            expect: 200,
            step: 3,
            as: Redeemed.self,
            timings: &timings
        )
        guard result.userId == userID else { throw RequestFailure(step: 3, summary: "redeem: result for another user") }
        guard result.transaction?.text == transaction?.text else {
            throw RequestFailure(step: 3, summary: "redeem: not the transaction the user approved")
        }
    }

    // MARK: Requests

    struct Ignored: Decodable {}

    private func post<Body: Encodable, Response: Decodable>(
        _ path: String,
        bearer: String,
        body: Body?,
        expect: UInt,
        step: Int,
        as type: Response.Type,
        timings: inout [StepTiming]
    ) async throws -> Response {
        guard budget.take() else { throw BudgetSpent() }
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let start = ContinuousClock.now
        let bytes: ByteBuffer
        let status: UInt
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = response.status.code
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw RequestFailure(step: step, summary: "\(Self.stepName(step)): \(Self.describe(error))")
        }
        let end = ContinuousClock.now
        guard status == expect else {
            let code =
                (try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes.readableBytesView)))?.error.code
                ?? "no error code"
            throw RequestFailure(step: step, summary: "\(Self.stepName(step)): \(status) \(code)")
        }
        timings.append(StepTiming(step: step, end: end, duration: end - start))
        if Response.self == Ignored.self { return Ignored() as! Response }
        do {
            return try JSONDecoder().decode(Response.self, from: Data(bytes.readableBytesView))
        } catch {
            throw RequestFailure(step: step, summary: "\(Self.stepName(step)): unexpected response body")
        }
    }

    private static func stepName(_ step: Int) -> String { ["create", "options", "complete", "redeem"][step] }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return "\(error)" }
        if let error = error as? IOError { return "I/O error \(error.errnoCode)" }
        return String(describing: type(of: error))
    }
}

/// One request that succeeded: which step, when it ended, how long it took.
struct StepTiming: Sendable {
    let step: Int
    let end: ContinuousClock.Instant
    let duration: Duration
}
