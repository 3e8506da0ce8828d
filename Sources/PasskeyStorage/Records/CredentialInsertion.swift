public import Foundation

/// The rules of ``CeremonyStore/insertCredential(_:maximumActive:flowID:flowUpdate:at:)``, which every adapter applies,
/// in its transaction, to what it read there — so that they are written once, with their error messages.
public enum CredentialInsertion {
    /// Whether `stored` keeps its id from a new credential: every credential does, but a reservation that expired
    /// without being settled, which the new credential replaces.
    public static func keepsID(_ stored: CredentialRecordRow, at time: Date) -> Bool {
        stored.status != .reserved || stored.isLive(at: time)
    }

    /// Refuses `credential`, in this order: `.credentialExists` when a stored credential keeps its id;
    /// `.limitReached` when the user has `maximumActive` live credentials (active, or reserved and not expired);
    /// `.nameTaken` when one of them has its name key.
    public static func check(
        _ credential: CredentialRecordRow,
        idKept: Bool,
        live: Int,
        liveWithNameKey: Int,
        maximumActive: Int
    ) throws(StoreError) {
        guard !idKept else { throw StoreError(.credentialExists, "This credential is registered already.") }
        guard live < maximumActive else {
            throw StoreError(.limitReached, "The user has \(live) credentials, the maximum.")
        }
        guard liveWithNameKey == 0 else {
            throw StoreError(.nameTaken, "Another credential of this user is named '\(credential.name)'.")
        }
    }
}
