import HTTPTypes
import HummingbirdCore
import Testing

@testable import PasskeyServer

/// A page that cannot be rendered is a 500 with the reason in the log, never a blank 200 nor a crash at start.
@Suite("Page templates that fail")
struct PageTemplateFailureTests {
    @Test("a template that cannot be parsed or rendered answers 500 and says why in the log")
    func unrenderablePage() throws {
        let logs = LogCapture()
        let templates = PageTemplates(
            logger: logs.logger("test"),
            sources: ["broken": "{{#section}}never closed"]
        )
        #expect(logs.all.contains { $0.contains("cannot be parsed") && $0.contains("broken") })
        for name in ["broken", "absent"] {
            let response = templates.page(name, [:])
            #expect(response.status == .internalServerError, "\(name)")
            #expect(logs.all.contains { $0.contains("cannot be rendered") && $0.contains("template=\(name)") })
        }
    }
}
