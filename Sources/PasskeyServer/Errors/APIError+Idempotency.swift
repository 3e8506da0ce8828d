import HTTPTypes

extension APIError.Code {
    /// The `Idempotency-Key` was used, within its 24 hours, for a request with another body (not retryable: use a new
    /// key for a new request), or its first request is still running (retryable: retry shortly to get its answer).
    public static let idempotentReplay = Self(rawValue: "IDEMPOTENT_REPLAY")
}

/// The codes of idempotent backend calls (`Idempotency-Key` on every backend `POST`).
extension APIError {
    static let idempotency: [Code] = [.idempotentReplay]
    static let idempotencyKeyReused = Self(
        .idempotentReplay,
        .unprocessableContent,
        "This Idempotency-Key was used for a request with another body in the last 24 hours; send a new key for a new request."
    )
    static let idempotencyKeyInProgress = Self(
        .idempotentReplay,
        .conflict,
        "The first request with this Idempotency-Key is still running; retry in a moment to get its answer.",
        retryable: true,
        headers: [.retryAfter: "1"]
    )
    static let idempotencyKeyInvalid = Self(
        .invalidRequest,
        .badRequest,
        "The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, say)."
    )
}
