import Foundation
import WebAuthn

/// An inspection that stopped at a decoding error, with the text rendered before it.
struct InspectionFailure: Error {
    let partialText: String
    let error: CommandLineError
}

/// The text rendering of `passkeys inspect`: a pure function from the input's bytes to a readable report.
enum Inspection {
    /// Recognizes what `input` holds and renders it: a credential JSON (registration or authentication), or an
    /// attestation object, authenticator data, client data or COSE key (base64url text, raw bytes, or JSON for
    /// client data).
    static func render(_ input: [UInt8]) throws(InspectionFailure) -> String {
        var report = InspectionReport()
        do throws(WebAuthnError) {
            try report.input(input)
        } catch {
            throw InspectionFailure(partialText: report.text, error: CommandLineError(error))
        }
        return report.text
    }
}

/// Builds the report line by line; each `render…` method decodes one structure and describes it.
struct InspectionReport {
    private(set) var lines: [String] = []

    var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// The column at which values start, relative to the label's indentation.
    static let labelWidth = 25

    mutating func heading(_ title: String) {
        if !lines.isEmpty { lines.append("") }
        lines.append(title)
    }

    mutating func field(_ label: String, _ value: String, depth: Int = 1) {
        let indent = String(repeating: "  ", count: depth)
        let head = label.isEmpty ? "" : label + ":"
        let padded =
            head.count < Self.labelWidth
            ? head + String(repeating: " ", count: Self.labelWidth - head.count) : head + " "
        let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false)
        lines.append((indent + padded + (valueLines.first.map(String.init) ?? "")).trimmingTrailingSpaces())
        let continuation = String(repeating: " ", count: indent.count + padded.count)
        for line in valueLines.dropFirst() { lines.append(continuation + line) }
    }
}
