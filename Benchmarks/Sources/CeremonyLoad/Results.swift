import Foundation

/// Latency percentiles, in milliseconds.
struct Percentiles: Codable, Sendable {
    var count: Int
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double

    /// Nearest-rank percentiles of durations in nanoseconds.
    init(nanoseconds samples: [Int64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Swift.min(
                sorted.count - 1,
                Swift.max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)
            )
            return Double(sorted[index]) / 1_000_000
        }
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        self.max = rank(1.0)
    }
}

/// What one run measured; written with `--json` and read by `CeremonyLoad table`.
struct LoadResult: Codable, Sendable {
    struct Step: Codable, Sendable {
        var name: String
        var latency: Percentiles
    }

    var label: String
    var kind: CeremonyKind
    var concurrency: Int
    var warmupSeconds: Double
    /// The measured window: from the end of the warm-up to the time the clients stopped starting ceremonies.
    var measuredSeconds: Double
    /// Ceremonies whose every request succeeded and that ended in the window.
    var ceremonies: Int
    var ceremoniesPerSecond: Double
    /// Ceremonies that ended in the window with a failed request.
    var errors: Int
    /// Failures by step, status and error code.
    var errorKinds: [String: Int]
    var latency: Percentiles
    var steps: [Step]
    /// Successful requests that ended in the window, per second.
    var requestsPerSecond: Double
    /// Requests sent in the whole run, setup and warm-up included.
    var requestsSent: Int
    var cpus: Int
    /// CPU time of this generator in the window over the window's length (1.0 = one core busy all the time).
    var generatorCores: Double
    var serverCores: Double?
    /// Context switches of the server's threads in the window, per ceremony completed in it.
    var serverSwitchesPerCeremony: Double?
    var databaseCores: Double?
    /// CPU time of the whole machine, every process included, over the window.
    var machineBusyCores: Double?
    /// The 1-minute load average before the run started.
    var loadAverageBefore: Double?
    var date: String
}

extension LoadResult {
    func printSummary() {
        func ms(_ value: Double) -> String { String(format: "%.2f", value) }
        func cores(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "n/a" }
        var text = """
            \(label.isEmpty ? "" : label + ", ")\(kind.rawValue), \(concurrency) clients, \(String(format: "%.1f", measuredSeconds)) s measured after \(String(format: "%.0f", warmupSeconds)) s warm-up
              ceremonies: \(ceremonies) (\(String(format: "%.1f", ceremoniesPerSecond))/s), errors: \(errors)
              ceremony latency ms: p50 \(ms(latency.p50))  p90 \(ms(latency.p90))  p99 \(ms(latency.p99))  max \(ms(latency.max))

            """
        for step in steps {
            text +=
                "  \(step.name.padding(toLength: 16, withPad: " ", startingAt: 0)) ms: p50 \(ms(step.latency.p50))  p90 \(ms(step.latency.p90))  p99 \(ms(step.latency.p99))  max \(ms(step.latency.max))\n"
        }
        text += "  requests/s: \(String(format: "%.0f", requestsPerSecond)); requests sent in all: \(requestsSent)\n"
        text +=
            "  CPU cores busy (of \(cpus)): generator \(cores(generatorCores)), server \(cores(serverCores)), database \(cores(databaseCores)), whole machine \(cores(machineBusyCores)); load average before \(cores(loadAverageBefore))\n"
        for (kind, count) in errorKinds.sorted(by: { $0.value > $1.value }).prefix(5) {
            text += "  error: \(count) × \(kind)\n"
        }
        print(text, terminator: "")
    }

    /// Markdown tables of several runs: ceremonies and CPU, then the latency of each request.
    static func markdownTables(_ results: [LoadResult]) -> String {
        func number(_ value: Double) -> String {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            formatter.locale = Locale(identifier: "en_US")
            return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
        }
        func ms(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
        func cores(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        /// CPU milliseconds per ceremony: cores busy over ceremonies per second.
        func perCeremony(_ value: Double?, _ rate: Double) -> String {
            guard let value, rate > 0 else { return "–" }
            return String(format: "%.2f", value / rate * 1000)
        }
        var text = """
            | Store | Ceremony | Clients | Ceremonies/s | p50 ms | p90 ms | p99 ms | Errors | Generator CPU | Server CPU | Database CPU | Server CPU ms per ceremony | Database CPU ms per ceremony | Server switches per ceremony | Machine busy |
            | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |

            """
        for r in results {
            let share = r.generatorCores / Double(max(r.cpus, 1)) * 100
            text +=
                "| \(r.label) | \(r.kind.rawValue) | \(r.concurrency) | \(number(r.ceremoniesPerSecond)) | \(ms(r.latency.p50)) | \(ms(r.latency.p90)) | \(ms(r.latency.p99)) | \(r.errors) | \(cores(r.generatorCores)) (\(String(format: "%.0f", share)) %) | \(cores(r.serverCores)) | \(cores(r.databaseCores)) | \(perCeremony(r.serverCores, r.ceremoniesPerSecond)) | \(perCeremony(r.databaseCores, r.ceremoniesPerSecond)) | \(r.serverSwitchesPerCeremony.map { String(format: "%.0f", $0) } ?? "–") | \(cores(r.machineBusyCores)) |\n"
        }
        text += """

            | Store | Ceremony | Clients | create p50 / p99 | options p50 / p99 | complete p50 / p99 | redeem p50 / p99 |
            | --- | --- | ---: | ---: | ---: | ---: | ---: |

            """
        for r in results {
            var cells = r.steps.map { "\(ms($0.latency.p50)) / \(ms($0.latency.p99))" }
            while cells.count < 4 { cells.append("–") }
            text += "| \(r.label) | \(r.kind.rawValue) | \(r.concurrency) | \(cells.joined(separator: " | ")) |\n"
        }
        return text
    }
}
