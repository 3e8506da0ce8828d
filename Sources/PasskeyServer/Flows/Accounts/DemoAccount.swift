import Crypto
import PasskeyStorage
import WebAuthn

/// The demo's accounts: users the demo made, named by an id it derives from the user name, so the demo needs no
/// table of its own. The sign-in flow refuses another account's passkey in a demo session; the pages make and
/// sign in only these.
enum DemoAccount {
    /// The demo's user id for a user name: free of the name itself (user ids appear in logs and the audit log).
    static func userID(forName name: String) -> String {
        "demo-" + Base64URL.encode(Array(SHA256.hash(data: Array("swift-passkeys demo user:\(name)".utf8))).prefix(18))
    }
}

extension UserRecord {
    /// Whether the demo made this user (its id is the one the demo derives from its name): the demo signs in no
    /// user of the integrator's, even one whose passkey answers a sign-in without a user name.
    var isDemoAccount: Bool { id == DemoAccount.userID(forName: name) }
}
