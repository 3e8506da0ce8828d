import Logging

/// The debug switch (``PasskeyClientConfiguration/debugLogging``): each step of a flow is logged at `debug` with
/// what helps to follow it — flow ids, credential ids, counts, the RP ID, error codes — and never a secret: no
/// client, result, recovery or IDV token, no challenge, key, signature, attestation, client data or user handle,
/// and no error message (it may quote the server). Off, the SDK logs nothing.
extension PasskeyClient {
    func trace(_ step: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        guard configuration.debugLogging else { return }
        logger.debug("\(step())", metadata: metadata().mapValues { .string($0) })
    }

    /// Runs one public flow, logging its start, its end and the code it failed with.
    func traced<Value>(
        _ flow: String,
        _ metadata: @autoclosure () -> [String: String] = [:],
        _ body: () async throws(PasskeyError) -> Value
    ) async throws(PasskeyError) -> Value {
        trace("\(flow): started", metadata())
        do {
            let result = try await body()
            trace("\(flow): done")
            return result
        } catch {
            trace("\(flow): failed", ["code": "\(error.code)", "retryable": "\(error.isRetryable)"])
            throw error
        }
    }
}

extension AuthenticationInput.Mode {
    /// The mode's name in the debug log.
    var logName: String {
        switch self {
        case .standard: "standard"
        case .stepUp: "stepUp"
        case .crossPlatform: "crossPlatform"
        }
    }
}
