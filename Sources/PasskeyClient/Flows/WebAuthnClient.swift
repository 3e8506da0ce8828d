import Foundation
public import WebAuthn

/// The client's part of the WebAuthn ceremonies (what a browser does around the authenticator, §5.1.3 and
/// §5.1.4): it checks the options, works out the RP ID from the origin, bounds the ceremony by the options'
/// `timeout`, and hands the request — every member intact — to the ``Authenticator``. Every flow of the SDK and
/// the command-line device commands go through it.
public struct WebAuthnClient: Sendable {
    public let authenticator: any Authenticator
    /// The origin reported in `clientDataJSON` (`https://<rpDomain>` for native apps).
    public let origin: String

    /// The options' `timeout` is clamped to this range, as browsers do.
    public let timeoutRange: ClosedRange<Duration>
    /// The timeout when the options give none.
    public static let defaultTimeout: Duration = .seconds(300)

    public init(
        authenticator: any Authenticator,
        origin: String,
        timeoutRange: ClosedRange<Duration> = .seconds(10) ... .seconds(600)
    ) {
        self.authenticator = authenticator
        self.origin = origin
        self.timeoutRange = timeoutRange
    }

    /// `create()`: checks `options` and asks the authenticator for a new credential.
    public func create(
        _ options: PublicKeyCredentialCreationOptionsJSON,
        userId: String? = nil
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        let rpID = try relyingPartyID(options.rp.id)
        guard (16...1024).contains(options.challenge.bytes.count) else {
            throw PasskeyError(
                .invalidInput,
                "The options' challenge must be 16 to 1024 bytes, not \(options.challenge.bytes.count)."
            )
        }
        guard (1...64).contains(options.user.id.bytes.count) else {
            throw PasskeyError(
                .invalidInput,
                "The options' user.id must be 1 to 64 bytes (WebAuthn §5.4.3), not \(options.user.id.bytes.count)."
            )
        }
        guard !options.user.name.isEmpty else { throw PasskeyError(.invalidInput, "The options' user.name is empty.") }
        let request = CredentialCreationRequest(options: options, origin: origin, rpID: rpID, userId: userId)
        let authenticator = self.authenticator
        return try await bounded(by: options.timeout, ceremony: "registration") { () async throws(PasskeyError) in
            try await authenticator.makeCredential(request)
        }
    }

    /// `get()`: checks `options` and asks the authenticator for an assertion.
    public func get(
        _ options: PublicKeyCredentialRequestOptionsJSON
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        let rpID = try relyingPartyID(options.rpId)
        guard (16...1024).contains(options.challenge.bytes.count) else {
            throw PasskeyError(
                .invalidInput,
                "The options' challenge must be 16 to 1024 bytes, not \(options.challenge.bytes.count)."
            )
        }
        let request = CredentialAssertionRequest(options: options, origin: origin, rpID: rpID)
        let authenticator = self.authenticator
        return try await bounded(by: options.timeout, ceremony: "sign-in") { () async throws(PasskeyError) in
            try await authenticator.getAssertion(request)
        }
    }

    /// The RP ID: the options' (which must be the origin's host or a parent domain of it, §5.1.3 step 8), or the
    /// origin's host.
    func relyingPartyID(_ given: String?) throws(PasskeyError) -> String {
        let host = Self.host(of: origin)
        guard let given else {
            guard let host else {
                throw PasskeyError(
                    .invalidInput,
                    "The options carry no RP ID, and the origin '\(origin)' has no host to take it from."
                )
            }
            return host
        }
        if let host, host == given || host.hasSuffix("." + given), given.contains(".") || given == host {
            return given
        }
        if host == nil, !given.isEmpty {
            // An app origin (android:apk-key-hash:…) has no host: the platform vouches for the RP ID.
            return given
        }
        throw PasskeyError(
            .relyingPartyMismatch,
            "The server's RP ID '\(given)' is not valid for the origin '\(origin)': it must be the origin's host or a parent domain. Check rpDomain against the server's rpId."
        )
    }

    static func host(of origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        let rest = origin[schemeEnd.upperBound...]
        let hostAndPort =
            rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if hostAndPort.hasPrefix("[") { return nil }
        return hostAndPort.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() }
    }

    /// Runs `body`, failing with `TIMEOUT` when the ceremony's time is up (the user never answered).
    ///
    /// At the deadline `body` is cancelled, and the authenticator ends its prompt (the Apple adapters close the
    /// system's sheet). Its answer is then awaited: a failure becomes `TIMEOUT`, but a response that arrives
    /// after the deadline — a credential the user made as the prompt closed — is returned, because the
    /// credential exists and only the relying party can still use it (it may refuse the challenge as expired).
    func bounded<T: Sendable>(
        by milliseconds: UInt32?,
        ceremony: String,
        _ body: @escaping @Sendable () async throws(PasskeyError) -> T
    ) async throws(PasskeyError) -> T {
        let requested = milliseconds.map { Duration.milliseconds(Int64($0)) } ?? Self.defaultTimeout
        let timeout = min(max(requested, timeoutRange.lowerBound), timeoutRange.upperBound)
        let result: Result<T, PasskeyError> = await withTaskGroup(of: CeremonyOutcome<T>?.self) { group in
            group.addTask {
                do throws(PasskeyError) {
                    return .answered(.success(try await body()))
                } catch {
                    return .answered(.failure(error))
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil
                }
                return .deadline
            }
            var deadlinePassed = false
            while let next = await group.next() {
                switch next {
                case .answered(let result)?:
                    group.cancelAll()
                    guard deadlinePassed, case .failure = result else { return result }
                    return .failure(
                        PasskeyError(
                            .timeout,
                            "The \(ceremony) was not completed within \(timeout.formattedSeconds) seconds (the options' timeout); start again."
                        )
                    )
                case .deadline?:
                    deadlinePassed = true
                    group.cancelAll()
                case nil:
                    continue
                }
            }
            return .failure(PasskeyError(.cancelled, "The \(ceremony) was cancelled."))
        }
        return try result.get()
    }
}

/// How a bounded ceremony's first child finished: the authenticator answered, or the deadline passed.
private enum CeremonyOutcome<T: Sendable>: Sendable {
    case answered(Result<T, PasskeyError>)
    case deadline
}
