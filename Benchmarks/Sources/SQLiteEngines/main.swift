// SQLiteEngines: what one SQLite sign-in costs with GRDB and with the SQLite C API behind sqlite-nio — the
// measurement by which the SQLite store's engine was chosen (docs/benchmarks.md).
//
// It creates the store's users, credentials, flows and audit_events tables in a fresh database file (WAL,
// synchronous = NORMAL, foreign keys on, busy timeout 5 s), seeds N users with one credential each, and runs the
// 14 store operations of a sign-in ceremony (read the user and their credentials; create the flow; audit; read the
// flow; read the credentials; issue the challenge; read the flow; consume the challenge; read the credential and
// its owner; record the use and complete the flow; audit; redeem the result; read the credential; audit) from K
// concurrent tasks. Each store operation is ONE trip to the connection's own thread, which runs all its statements
// (and its transaction) from statements prepared once. Engines:
//
//   capi         the C API of sqlite-nio's vendored SQLite (module VaporCSQLite): an actor on a dedicated NIO
//                event loop thread
//   capi-system  the same code on the system's libsqlite3, the library GRDB links on Linux
//   grdb         GRDB: a DatabaseQueue, `writeWithoutTransaction {}` per operation (the same statements as capi)
//   grdb-rw      GRDB as its documentation shows: reads in `read {}`, writes in `write {}` (a transaction each)
//   capi-lock    capi without the trips: the operation runs on the caller's thread under a mutex
//   grdb-sync    grdb without the trips: GRDB's synchronous access, on the caller's thread
//   nio          the baseline: sqlite-nio's `SQLiteConnection.query` per statement behind a lease, as the store
//                did before it moved to the C API (docs/benchmarks.md)
//
// For each repetition, number of clients and engine (alternated), a child process seeds a fresh file, warms up,
// then measures a window: ceremonies per second, process CPU (getrusage, all threads) per ceremony, voluntary +
// involuntary context switches per ceremony, and ceremony latency. It prints Markdown tables.
//
//   swift build -c release && .build/release/SQLiteEngines [--users 10000] [--clients 8,32] [--seconds 10]
//       [--warmup 3] [--repeats 3] [--engines capi,capi-system,grdb,grdb-rw,nio,…] [--directory /tmp]
//   .build/release/SQLiteEngines run ENGINE CLIENTS [options]     one measurement, for a profiler
import Foundation

struct Options {
    var users = 10_000
    var clients = [8, 32]
    var seconds = 10.0
    var warmup = 3.0
    var repeats = 3
    var engines = ["capi", "capi-system", "capi-lock", "grdb", "grdb-sync", "grdb-rw", "nio"]
    var directory = NSTemporaryDirectory()

    init(_ arguments: ArraySlice<String>) throws {
        var arguments = arguments
        while let name = arguments.popFirst() {
            guard let value = arguments.popFirst() else { throw UsageError("\(name) needs a value") }
            switch name {
            case "--users": users = try Self.number(value, name)
            case "--clients": clients = try value.split(separator: ",").map { try Self.number(String($0), name) }
            case "--seconds": seconds = Double(try Self.number(value, name))
            case "--warmup": warmup = Double(try Self.number(value, name))
            case "--repeats": repeats = try Self.number(value, name)
            case "--engines": engines = value.split(separator: ",").map(String.init)
            case "--directory": directory = value
            default: throw UsageError("unknown option \(name)")
            }
        }
    }

    var childArguments: [String] {
        ["--users", "\(users)", "--seconds", "\(Int(seconds))", "--warmup", "\(Int(warmup))", "--directory", directory]
    }

    static func number(_ text: String, _ name: String) throws -> Int {
        guard let number = Int(text), number > 0 else { throw UsageError("\(name) needs a positive number") }
        return number
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Opens `engine` on a fresh file, seeds it, measures, closes it and deletes the file.
func runOne(engine name: String, clients: Int, options: Options) async throws -> (library: String, RunResult) {
    let path = (options.directory as NSString).appendingPathComponent("sqlite-engines-\(getpid()).sqlite")
    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    removeFiles()
    defer { removeFiles() }
    func run(_ store: some SignInStore) async throws -> (String, RunResult) {
        try await store.createAndSeed(users: options.users)
        let library = try await store.libraryDescription()
        let result = try await measure(
            store,
            clients: clients,
            users: options.users,
            warmup: options.warmup,
            seconds: options.seconds
        )
        try await store.close()
        return (library, result)
    }
    switch name {
    case "capi": return try await run(EngineStore(engine: CAPIEngine<VendoredSQLite>(path: path)))
    case "capi-system": return try await run(EngineStore(engine: CAPIEngine<SystemSQLite>(path: path)))
    case "capi-lock": return try await run(EngineStore(engine: LockedCEngine<VendoredSQLite>(path: path)))
    case "grdb-sync":
        return try await run(
            EngineStore(engine: SynchronousGRDBEngine(engine: GRDBEngine(path: path, idiomatic: false)))
        )
    case "grdb": return try await run(EngineStore(engine: GRDBEngine(path: path, idiomatic: false)))
    case "grdb-rw": return try await run(EngineStore(engine: GRDBEngine(path: path, idiomatic: true)))
    case "nio": return try await run(NIOBaselineStore.open(path: path))
    default: throw UsageError("unknown engine \(name): capi, capi-system, capi-lock, grdb, grdb-rw, grdb-sync or nio")
    }
}

/// Runs one measurement in a child process, so that each starts from a fresh process.
func runChild(engine: String, clients: Int, options: Options) throws -> (library: String, RunResult) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["run", engine, "\(clients)"] + options.childArguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    guard process.terminationStatus == 0, lines.count >= 2, let result = RunResult(line: lines[1]) else {
        throw UsageError("the run of \(engine) with \(clients) clients failed")
    }
    return (String(lines[0]), result)
}

func machineDescription() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
        cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
        .trimmingCharacters(in: .whitespaces) ?? "unknown"
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model)"
}

func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

let arguments = CommandLine.arguments.dropFirst()
do {
    if arguments.first == "run" {
        let rest = arguments.dropFirst()
        guard rest.count >= 2, let clients = Int(rest[rest.startIndex + 1]) else {
            throw UsageError("run ENGINE CLIENTS [options]")
        }
        let (library, result) = try await runOne(
            engine: rest[rest.startIndex],
            clients: clients,
            options: try Options(rest.dropFirst(2))
        )
        print(library)
        print(result.line)
    } else {
        let options = try Options(arguments)
        let started = Date()
        print("## SQLite engines: one sign-in's 14 store operations, one trip each\n")
        print("- date: \(ISO8601DateFormatter().string(from: started))")
        print("- machine: \(machineDescription())")
        print(
            "- \(options.users) users with one credential each; \(Int(options.warmup)) s warm-up, "
                + "\(Int(options.seconds)) s measured; \(options.repeats) repetitions, engines alternated"
        )
        var libraries: [String: String] = [:]
        var rows: [(engine: String, clients: Int, repetition: Int, load: String, result: RunResult)] = []
        for repetition in 1...options.repeats {
            for clients in options.clients {
                // Alternate the engines' order between repetitions.
                let shift = (repetition - 1) % options.engines.count
                for engine in options.engines[shift...] + options.engines[..<shift] {
                    let load = loadAverage()
                    let (library, result) = try runChild(engine: engine, clients: clients, options: options)
                    libraries[engine] = library
                    rows.append((engine, clients, repetition, load, result))
                    FileHandle.standardError.write(
                        Data(
                            "\(engine) K=\(clients) #\(repetition): \(format(result.perSecond, 0))/s, "
                                .utf8
                        ) + Data("\(format(result.cpuMicrosecondsPerCeremony, 0)) µs CPU, load \(load)\n".utf8)
                    )
                }
            }
        }
        for engine in options.engines { print("- \(engine): SQLite \(libraries[engine] ?? "?")") }
        print("- finished: \(ISO8601DateFormatter().string(from: Date()))\n")
        print(
            "| engine | clients | ceremonies/s | CPU µs/ceremony | switches/ceremony | busiest thread | p50 ms | p99 ms |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for clients in options.clients {
            for engine in options.engines {
                let runs = rows.filter { $0.engine == engine && $0.clients == clients }.map(\.result)
                print(
                    "| \(engine) | \(clients) | \(format(median(runs.map(\.perSecond)), 0)) | "
                        + "\(format(median(runs.map(\.cpuMicrosecondsPerCeremony)), 0)) | "
                        + "\(format(median(runs.map(\.switchesPerCeremony)), 1)) | "
                        + "\(format(100 * median(runs.map(\.busiestThread)), 0)) % | "
                        + "\(format(median(runs.map(\.p50Milliseconds)), 2)) | "
                        + "\(format(median(runs.map(\.p99Milliseconds)), 2)) |"
                )
            }
        }
        print("\nMedians of the \(options.repeats) runs. Each run:\n")
        print(
            "| engine | clients | run | load avg before | others' CPU (cores) | ceremonies/s | CPU µs/ceremony | voluntary + involuntary switches/ceremony | busiest thread | p50 ms | p99 ms |"
        )
        print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows {
            let r = row.result
            print(
                "| \(row.engine) | \(row.clients) | \(row.repetition) | \(row.load) | \(format(r.othersCores, 2)) | "
                    + "\(format(r.perSecond, 0)) | "
                    + "\(format(r.cpuMicrosecondsPerCeremony, 0)) | "
                    + "\(format(Double(r.voluntarySwitches) / Double(r.ceremonies), 1)) + "
                    + "\(format(Double(r.involuntarySwitches) / Double(r.ceremonies), 1)) | "
                    + "\(format(100 * r.busiestThread, 0)) % | "
                    + "\(format(r.p50Milliseconds, 2)) | \(format(r.p99Milliseconds, 2)) |"
            )
        }
    }
} catch {
    FileHandle.standardError.write(Data("SQLiteEngines: \(error)\n".utf8))
    exit(1)
}
