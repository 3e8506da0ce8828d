import Foundation

// Drives a running `passkeys serve` over HTTP with concurrent virtual clients and reports complete ceremonies
// per second with their latencies (see docs/benchmarks.md and Benchmarks/http-load.sh):
//
//   CeremonyLoad run --url http://127.0.0.1:8080 --api-key KEY --kind signin --concurrency 16 --duration 20
//   CeremonyLoad table results/*.json
//   CeremonyLoad compare --ours SQLite --peer "go-webauthn peer, SQLite" results/*.json

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("CeremonyLoad: \(message)\n".utf8))
    exit(code)
}

/// The result of a run, as `run --json` wrote it.
func readResult(_ path: String) -> LoadResult {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do {
        return try JSONDecoder().decode(LoadResult.self, from: data)
    } catch {
        fail("\(path) is not a CeremonyLoad result: \(error)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "run":
    let options: LoadOptions
    do {
        options = try LoadOptions.parse(Array(arguments.dropFirst()))
    } catch {
        fail("\(error)\n\n\(LoadOptions.usage)")
    }
    do {
        let result = try await LoadRun(options: options).run()
        result.printSummary()
        if let path = options.jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(result).write(to: URL(fileURLWithPath: path))
        }
        // A run in which no ceremony succeeded is a failed run (a wrong API key, a server that is not there).
        if result.ceremonies == 0 { fail("no ceremony succeeded", code: 1) }
    } catch {
        fail("\(error)", code: 1)
    }
case "table":
    print(LoadResult.markdownTables(arguments.dropFirst().map(readResult)), terminator: "")
case "compare":
    let comparison: Comparison
    let files: [String]
    do {
        (comparison, files) = try Comparison.parse(Array(arguments.dropFirst()))
    } catch {
        fail("\(error)\n\n\(Comparison.usage)")
    }
    print(comparison.markdownTable(files.map(readResult)), terminator: "")
case "-h", "--help", "help":
    print(LoadOptions.usage)
default:
    fail("say what to do\n\n\(LoadOptions.usage)")
}
