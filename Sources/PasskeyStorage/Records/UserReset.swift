extension FlowStatus {
    /// The statuses of a flow that can still go on: options may be issued or a response completed. A reset of the
    /// flow's user (see ``PasskeyStore``) ends it; so does one of a completed sign-in whose result is not redeemed yet
    /// and one of a registration whose credential is still reserved.
    public static let inFlight: Set<FlowStatus> = [.created, .optionsIssued, .verifying, .handedOff, .failed]
}

extension CrossPlatformSessionRecord.Status {
    /// The statuses of a handoff that can still go on; a reset of its flow's user rejects it.
    public static let inFlight: Set<Self> = [.pending, .claimed, .confirmed]
}
