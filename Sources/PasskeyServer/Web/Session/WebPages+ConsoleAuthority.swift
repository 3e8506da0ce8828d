import Foundation
import PasskeyStorage

/// What a console session's authority rests on, checked against the configuration the server runs with now, on
/// every request: an operator's session while their user id is named in `web.operators`, a break-glass session
/// while an API key of its name is configured and grants the `console` scope. A session whose ground was removed (the server restarted with
/// another configuration) is refused, though its row stays until it expires.
extension WebPages {
    func holds(_ session: WebSessionRecord) -> Bool {
        guard session.kind == .console else { return true }
        guard let name = session.operatorName else { return false }
        if let userID = session.userID {
            return name == "user:\(userID)" && service.configuration.web.operators.contains(userID)
        }
        return service.configuration.apiKeys.contains { $0.name == name && $0.grants(.console) }
    }

    /// Whether `userID` is one of the console's operators: the demo neither signs such an account in with a phone
    /// nor adds passkeys to it.
    func isOperator(_ userID: String) -> Bool { service.configuration.web.operators.contains(userID) }
}
