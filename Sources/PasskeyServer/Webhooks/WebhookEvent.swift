import PasskeyStorage

/// A webhook event: its type and its data, derived from an audit event. The rule of which audited action is which
/// event is written here, once (``events(for:)``); what the data holds is picked field by field from the audit
/// event, which never holds a secret, so neither does an event.
struct WebhookEvent: Sendable, Equatable {
    let type: WebhookEventType
    let data: [String: Value]

    /// A value of an event's data.
    enum Value: Sendable, Equatable, Encodable {
        case string(String)
        case bool(Bool)
        case strings([String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            }
        }
    }

    /// The events an audit event is: none for most actions, more than one for some (a sign-in approved on a phone is
    /// also the handoff's approval).
    static func events(for audit: AuditEvent) -> [WebhookEvent] {
        let details = audit.details
        var data = Fields(audit)
        switch AuditAction(rawValue: audit.action) {
        case .registrationCompleted where details["status"] == "active":
            return [WebhookEvent(.passkeyRegistered, data.credential().with(details, ["name", "aaguid"]))]
        case .registrationFinalized:
            return [WebhookEvent(.passkeyRegistered, data.credential())]
        case .credentialRevoked:
            return [WebhookEvent(.passkeyRevoked, data.credential().with(details, ["recovery": "recoveryAttemptId"]))]
        case .credentialRenamed:
            return [WebhookEvent(.passkeyRenamed, data.credential().with(details, ["name"]))]
        case .authenticationCompleted:
            data = data.credential().with(details, ["flow": "biometricPasskeySessionId", "action": "action"])
            data.fields["userVerified"] = .bool(details["userVerified"] == "true")
            var events =
                details["mode"] == "stepUp"
                ? [WebhookEvent(.stepUpCompleted, data.with(details, ["assurance", "transactionDigest"]))]
                : [WebhookEvent(.signInCompleted, data.with(details, ["assurance"]))]
            if details["signCountRegressed"] == "true" {
                events.append(WebhookEvent(.signInCloneSuspected, data.credential().flag("signInRefused", false)))
            }
            if let handoff = details["handoff"], handoff != "none" {
                events.append(WebhookEvent(.handoffApproved, data.credential().set("crossPlatformSessionId", handoff)))
            }
            return events
        case .credentialCloneSuspected:
            return [WebhookEvent(.signInCloneSuspected, data.credential().flag("signInRefused", true))]
        case .identityVerificationDecided:
            return [
                WebhookEvent(
                    .identityVerificationDecided,
                    data.subject("workflowRunId").with(details, ["decision", "faceMatch"])
                )
            ]
        case .recoveryCreated:
            return [WebhookEvent(.recoveryStarted, data.subject("recoveryAttemptId"))]
        case .recoveryFinalized:
            var finalized = data.subject("recoveryAttemptId").with(details, ["credential": "credentialId"])
            let revoked = details["revoked"].map { $0.split(separator: ",").map(String.init) } ?? []
            finalized.fields["revokedCredentialIds"] = .strings(revoked)
            let replacement = data.subject("recoveryAttemptId").with(details, ["credential": "credentialId"])
            return [WebhookEvent(.recoveryFinalized, finalized), WebhookEvent(.passkeyRegistered, replacement)]
        case .userDeleted:
            return [WebhookEvent(.userDeleted, data)]
        case .handoffRejected:
            return [WebhookEvent(.handoffRejected, data.subject("crossPlatformSessionId").with(details, ["reason"]))]
        case .sessionReuseDetected:
            return [WebhookEvent(.sessionReuseDetected, data.subject("sessionId"))]
        default:
            return []
        }
    }

    private init(_ type: WebhookEventType, _ data: Fields) {
        self.type = type
        self.data = data.fields
    }

    /// An event's data as it is built: the user's id, then what each event adds.
    private struct Fields {
        var fields: [String: Value] = [:]
        let subject: String?

        init(_ audit: AuditEvent) {
            subject = audit.subject
            if let userID = audit.userID { fields["userId"] = .string(userID) }
        }

        /// With the audit event's subject, a credential's id.
        func credential() -> Fields { self.subject("credentialId") }

        /// With the audit event's subject under `name`.
        func subject(_ name: String) -> Fields { subject.map { set(name, $0) } ?? self }

        func set(_ name: String, _ value: String) -> Fields {
            var copy = self
            copy.fields[name] = .string(value)
            return copy
        }

        func flag(_ name: String, _ value: Bool) -> Fields {
            var copy = self
            copy.fields[name] = .bool(value)
            return copy
        }

        /// With the details named, under the same names.
        func with(_ details: [String: String], _ names: [String]) -> Fields {
            with(details, Dictionary(uniqueKeysWithValues: names.map { ($0, $0) }))
        }

        /// With the details named by the keys, under the values' names; a detail absent (or `none`) is left out.
        func with(_ details: [String: String], _ names: [String: String]) -> Fields {
            var copy = self
            for (detail, name) in names {
                guard let value = details[detail], value != "none" else { continue }
                copy.fields[name] = .string(value)
            }
            return copy
        }
    }
}
