public import PasskeyStorage

extension StoreError.Code {
    /// A restore would replace a database file that a process (a running server) has open.
    public static let inUse = Self(rawValue: "IN_USE")
    /// A backup's schema is newer than this build knows: a newer version of swift-passkeys wrote it.
    public static let newerSchema = Self(rawValue: "NEWER_SCHEMA")
}
