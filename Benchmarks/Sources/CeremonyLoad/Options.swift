import Foundation

/// Which ceremony the virtual clients repeat.
enum CeremonyKind: String, Codable, Sendable, CaseIterable {
    /// Backend create → client options → client complete.
    case registration
    /// Backend create (with userId) → client options → client complete → backend redeem.
    case signin
    /// A sign-in in step-up mode with a transaction text, which the challenge commits to and redeem returns.
    case stepup

    /// Whether the ceremony signs in users registered before the run.
    var signsIn: Bool { self != .registration }

    /// The requests of one ceremony, in order.
    var steps: [String] {
        switch self {
        case .registration: ["backend create", "client options", "client complete"]
        case .signin, .stepup: ["backend create", "client options", "client complete", "backend redeem"]
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The options of a load run (`CeremonyLoad run …`).
struct LoadOptions: Sendable {
    var url = "http://127.0.0.1:8080"
    var apiKey = ProcessInfo.processInfo.environment["PASSKEYS_API_KEY"] ?? ""
    var kind = CeremonyKind.signin
    var concurrency = 8
    var duration = 10.0
    var warmup = 3.0
    /// Users registered before a sign-in run; at least one per virtual client.
    var users = 0
    var origin: String?
    var rpID = "localhost"
    /// A hard bound on the requests of the whole run (setup, warm-up and measurement).
    var maxRequests = 5_000_000
    var requestTimeout = 10.0
    var serverPID: Int32?
    var databasePID: Int32?
    var label = ""
    var jsonPath: String?

    /// The most a run may last, warm-up and setup aside, so that a mistyped duration cannot load the machine for hours.
    static let longestDuration = 600.0

    var host: String { URLComponents(string: url)?.host ?? "" }
    var port: Int { URLComponents(string: url)?.port ?? 80 }
    var effectiveOrigin: String { origin ?? "http://localhost:\(port)" }
    var effectiveUsers: Int { max(users, concurrency) }

    static let usage = """
        usage: CeremonyLoad run [options]        drive a running passkeys server and report ceremonies/s
               CeremonyLoad table FILE.json...   print the results of runs as Markdown tables
               CeremonyLoad compare --ours LABEL --peer LABEL FILE.json...   our server beside a peer

        run options:
          --url URL              the server (default http://127.0.0.1:8080; only 127.0.0.1, localhost or [::1])
          --api-key KEY          a backend API key (default: $PASSKEYS_API_KEY)
          --kind signin|stepup|registration   the ceremony to repeat (default signin)
          --concurrency N        virtual clients, each running one ceremony at a time (default 8)
          --duration SECONDS     the measured time (default 10, at most 600)
          --warmup SECONDS       ceremonies run but are not counted for this long first (default 3)
          --users N              users registered before a sign-in run (default: one per client)
          --origin ORIGIN        the origin the authenticator reports (default http://localhost:PORT)
          --rp-id ID             the RP ID (default localhost)
          --max-requests N       stop after this many requests in all (default 5000000)
          --timeout SECONDS      per request (default 10)
          --server-pid PID       also report the CPU time of this process (the server)
          --database-pid PID     also report the CPU time of this process and its children (PostgreSQL)
          --label TEXT           a name for the run in tables (such as the store)
          --json FILE            write the result as JSON
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> LoadOptions {
        var options = LoadOptions()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(name) needs a value") }
            return arguments[index]
        }
        func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type) throws(UsageError) -> T {
            let text = try value(name)
            guard let parsed = T(text) else { throw UsageError("\(name) takes a number, not '\(text)'") }
            return parsed
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--url": options.url = try value(argument)
            case "--api-key": options.apiKey = try value(argument)
            case "--kind":
                let text = try value(argument)
                guard let kind = CeremonyKind(rawValue: text) else {
                    throw UsageError("--kind is signin, stepup or registration, not '\(text)'")
                }
                options.kind = kind
            case "--concurrency": options.concurrency = try number(argument, Int.self)
            case "--duration": options.duration = try number(argument, Double.self)
            case "--warmup": options.warmup = try number(argument, Double.self)
            case "--users": options.users = try number(argument, Int.self)
            case "--origin": options.origin = try value(argument)
            case "--rp-id": options.rpID = try value(argument)
            case "--max-requests": options.maxRequests = try number(argument, Int.self)
            case "--timeout": options.requestTimeout = try number(argument, Double.self)
            case "--server-pid": options.serverPID = try number(argument, Int32.self)
            case "--database-pid": options.databasePID = try number(argument, Int32.self)
            case "--label": options.label = try value(argument)
            case "--json": options.jsonPath = try value(argument)
            default: throw UsageError("unknown option '\(argument)'")
            }
            index += 1
        }
        try options.validate()
        return options
    }

    func validate() throws(UsageError) {
        guard let components = URLComponents(string: url), components.scheme == "http",
            components.path.isEmpty || components.path == "/"
        else {
            throw UsageError("--url must be http://HOST:PORT")
        }
        // Load is generated on this machine, against this machine only.
        guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
            throw UsageError("--url must name 127.0.0.1, localhost or [::1]; '\(host)' is not this machine's loopback")
        }
        guard !apiKey.isEmpty else { throw UsageError("give a backend API key with --api-key or PASSKEYS_API_KEY") }
        guard (1...4096).contains(concurrency) else { throw UsageError("--concurrency must be 1 to 4096") }
        guard duration > 0, duration <= Self.longestDuration else {
            throw UsageError("--duration must be more than 0 and at most 600 seconds")
        }
        guard warmup >= 0, warmup <= 120 else { throw UsageError("--warmup must be 0 to 120 seconds") }
        guard (0...1_000_000).contains(users) else { throw UsageError("--users must be at most 1000000") }
        guard maxRequests > 0 else { throw UsageError("--max-requests must be positive") }
        guard requestTimeout > 0, requestTimeout <= 120 else {
            throw UsageError("--timeout must be more than 0 and at most 120 seconds")
        }
    }
}
