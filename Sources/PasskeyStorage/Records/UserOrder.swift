/// The order a listing of users comes in, and what its cursor (`after`) is: ids or user names, each compared by
/// their UTF-8 bytes, so every adapter pages in the same order whatever its locale. User names are unique, so
/// either is a total order.
public enum UserOrder: String, Sendable, CaseIterable {
    case id
    case name
}
