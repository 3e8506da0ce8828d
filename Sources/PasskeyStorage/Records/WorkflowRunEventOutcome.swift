/// What became of a vendor's decision event
/// (``WorkflowRunStore/decideWorkflowRun(id:from:to:faceMatch:at:eventKeyHash:eventWindow:)``).
public enum WorkflowRunEventOutcome: Sendable, Hashable {
    /// The decision was applied and its event spent: the run as it is now.
    case decided(WorkflowRunRecord)
    /// The event was spent before: nothing changed.
    case replayed
    /// The run is unknown, was decided already, or has expired: nothing changed, and the event is not spent.
    case refused
}
