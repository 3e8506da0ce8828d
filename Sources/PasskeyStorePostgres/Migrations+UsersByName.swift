import PasskeyStorage

extension Migrations {
    /// Users listed by name (`GET /v1/users?order=name`, the console) are ordered and paged in the "C" collation, byte
    /// by byte, whatever the database's locale; the unique index on `name` sorts in the database's collation, so it
    /// cannot serve that order. This index does, so a page of a large user list reads its rows, not the table.
    static let usersByName = Migration(
        version: 17,
        name: "users by name in byte order",
        statements: [#"CREATE INDEX users_name_bytewise ON users (name COLLATE "C")"#]
    )
}
