/// Waits until `condition` holds, checking every `interval`, for at most `seconds`; false if it never did. Every
/// use waits for something due to happen, so the default is generous: a whole suite on a loaded 2-core machine can
/// hold a delivery back for many seconds, and a condition that holds ends the wait at once.
public func eventually(
    within seconds: Double = 60,
    every interval: Duration = .milliseconds(50),
    _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
