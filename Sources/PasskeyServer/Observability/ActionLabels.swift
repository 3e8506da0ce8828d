import Synchronization

/// The `action` label of the ceremony metric, kept to a bounded set so that the actions backends send (free text
/// up to 128 characters) cannot grow the metric without limit: an action becomes a label value when it looks like
/// an identifier (1–48 of `a–z 0–9 . _ -`, starting with a letter or digit, such as `payment.approve`) and is one
/// of the first ``capacity`` distinct actions this process has counted; any other action counts as `other`. A
/// sign-in without an action carries no `action` label. The audit log, not the metric, keeps every action as sent.
final class ActionLabels: Sendable {
    static let capacity = 32
    static let other = "other"
    private let seen = Mutex<Set<String>>([])

    /// The label value for `action`.
    func label(for action: String) -> String {
        guard Self.isIdentifier(action) else { return Self.other }
        return seen.withLock { seen in
            if seen.contains(action) { return action }
            guard seen.count < Self.capacity else { return Self.other }
            seen.insert(action)
            return action
        }
    }

    static func isIdentifier(_ action: String) -> Bool {
        guard (1...48).contains(action.utf8.count), let first = action.utf8.first,
            first.isLowercaseLetterOrDigit
        else { return false }
        return action.utf8.allSatisfy { $0.isLowercaseLetterOrDigit || [0x2E, 0x5F, 0x2D].contains($0) }
    }
}

extension UInt8 {
    fileprivate var isLowercaseLetterOrDigit: Bool { (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) }
}
