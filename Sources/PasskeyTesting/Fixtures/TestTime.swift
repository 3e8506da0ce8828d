public import Foundation

/// The moment tests run at, so that records, tokens and expiries come out the same on every run.
public enum TestTime {
    /// 2027-01-15T08:00:00Z: whole seconds (every store keeps them exactly), inside the test certificates' validity.
    public static let fixed = Date(timeIntervalSince1970: 1_800_000_000)

    /// `count` random bytes: ids, handles and token hashes that must differ between records.
    public static func randomBytes(_ count: Int = 32) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    }
}
