import Foundation
import PasskeyServer
import Testing

/// The audit actions are a catalogue: docs/server.md lists exactly the actions of `AuditAction.all`.
struct AuditActionCatalogueTests {
    @Test func docsListEveryAuditActionAndNoOther() throws {
        let text = try String(
            contentsOf: OpenAPIDocument.packageRoot().appendingPathComponent("docs/server.md"),
            encoding: .utf8
        )
        let start = try #require(text.range(of: "Every audit event's `action` is one of these"))
        // The table that follows the sentence: its rows up to the first line that is not one.
        let rows = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix {
            $0.hasPrefix("|")
        }
        let documented = Set(
            rows.compactMap { row -> String? in
                let cells = row.split(separator: "`")
                return row.hasPrefix("| `") && cells.count > 1 ? String(cells[1]) : nil
            }
        )
        #expect(!documented.isEmpty)
        let actions = Set(AuditAction.all.map(\.rawValue))
        #expect(actions.count == AuditAction.all.count, "AuditAction.all lists an action twice")
        #expect(actions.subtracting(documented).isEmpty, "not in docs/server.md: \(actions.subtracting(documented))")
        #expect(documented.subtracting(actions).isEmpty, "not in AuditAction.all: \(documented.subtracting(actions))")
    }
}
