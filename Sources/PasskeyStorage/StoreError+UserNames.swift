extension StoreError {
    /// A user cannot be created: another user of the relying party has the user name.
    public static let userNameTaken = StoreError(.nameTaken, "Another user has this user name.")
}
