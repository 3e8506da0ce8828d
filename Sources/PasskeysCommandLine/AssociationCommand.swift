import ArgumentParser
import Foundation
import PasskeyServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `passkeys association`: the origin allowlist and the association files a configuration implies, and a check
/// of what a domain actually hosts.
struct AssociationCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "association",
        abstract: "Print the derived origin allowlist and association files, or check what a domain hosts.",
        discussion: """
            Without --check, prints the expected-origin allowlist (web origins, related origins, https://RPID for \
            iOS apps, android:apk-key-hash: origins for Android apps) and the three files the server serves: \
            /.well-known/apple-app-site-association, /.well-known/assetlinks.json and /.well-known/webauthn.

            With --check https://DOMAIN, fetches those three files from the domain and compares them with the \
            configuration: each must answer 200 with application/json, without a redirect, and hold the same \
            JSON. Exit code 0 when all match, 1 otherwise.
            """
    )

    @Option(
        help: ArgumentHelp(
            "A configuration file, .json, .yaml, .yml or .toml (default: the local development configuration).",
            valueName: "file"
        )
    )
    var config: String?

    @Option(help: ArgumentHelp("A base URL to check, such as https://example.com.", valueName: "url"))
    var check: String?

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(file: config, environment: [:])
        } catch {
            return CommandResult(exitCode: CommandResult.usage, standardError: "error: \(error)\n")
        }
        let files = AssociationFiles(configuration: configuration)
        let expected: [(path: String, body: [UInt8])]
        do {
            expected = [
                ("/.well-known/apple-app-site-association", try files.appleAppSiteAssociation),
                ("/.well-known/assetlinks.json", try files.assetLinks),
                ("/.well-known/webauthn", try files.relatedOrigins),
            ]
        } catch {
            return CommandResult(exitCode: CommandResult.failure, standardError: "error: \(error)\n")
        }
        guard let check else {
            var text = "Allowed origins:\n" + configuration.allowedOrigins.map { "  \($0)\n" }.joined()
            for file in expected { text += "\n\(file.path)\n\(String(decoding: file.body, as: UTF8.self))\n" }
            return CommandResult(exitCode: CommandResult.success, standardOutput: text)
        }
        guard let base = URL(string: check),
            base.scheme == "https" || base.host == "localhost" || base.host == "127.0.0.1"
        else {
            return CommandResult(
                exitCode: CommandResult.usage,
                standardError: "error: --check needs an https URL such as https://example.com\n"
            )
        }
        var report = ""
        var allMatch = true
        for file in expected {
            let outcome = await Self.compare(
                url: base.appendingPathComponent(String(file.path.dropFirst())),
                expected: file.body
            )
            allMatch = allMatch && outcome.matches
            report += "\(outcome.matches ? "ok  " : "FAIL") \(file.path): \(outcome.detail)\n"
        }
        return CommandResult(exitCode: allMatch ? CommandResult.success : CommandResult.failure, standardOutput: report)
    }

    static func compare(url: URL, expected: [UInt8]) async -> (matches: Bool, detail: String) {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            return (false, "could not be fetched (\(error.localizedDescription))")
        }
        guard let http = response as? HTTPURLResponse else { return (false, "no HTTP response") }
        guard http.url == url else {
            return (false, "redirected to \(http.url?.absoluteString ?? "?"); serve it directly")
        }
        guard http.statusCode == 200 else { return (false, "answered \(http.statusCode)") }
        guard (http.value(forHTTPHeaderField: "Content-Type") ?? "").hasPrefix("application/json") else {
            return (
                false, "Content-Type is '\(http.value(forHTTPHeaderField: "Content-Type") ?? "")', not application/json"
            )
        }
        guard let hosted = try? JSONSerialization.jsonObject(with: data),
            let wanted = try? JSONSerialization.jsonObject(with: Data(expected))
        else {
            return (false, "is not JSON")
        }
        guard NSDictionary(dictionary: ["v": hosted]).isEqual(to: ["v": wanted]) else {
            return (false, "differs from the configuration; expected:\n\(String(decoding: expected, as: UTF8.self))")
        }
        return (true, "matches")
    }
}
