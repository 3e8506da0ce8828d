import Foundation

/// Our server beside a peer (Benchmarks/Peers/) on the same load: `CeremonyLoad compare --ours LABEL --peer LABEL
/// FILE.json...` pairs the runs of the two labels by ceremony and client count, and prints the median of each side's
/// rounds and their ratio.
struct Comparison {
    let ours: String
    let peer: String

    static let usage = """
        usage: CeremonyLoad compare --ours LABEL --peer LABEL FILE.json...
          a table of our server beside a peer: the median of each side's runs per ceremony and client count, and
          the ratio peer ÷ ours
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> (Comparison, [String]) {
        var ours: String?
        var peer: String?
        var files: [String] = []
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--ours", "--peer":
                guard index + 1 < arguments.count else { throw UsageError("\(arguments[index]) needs a label") }
                if arguments[index] == "--ours" { ours = arguments[index + 1] } else { peer = arguments[index + 1] }
                index += 2
            default:
                files.append(arguments[index])
                index += 1
            }
        }
        guard let ours, let peer else { throw UsageError("compare needs --ours LABEL and --peer LABEL") }
        return (Comparison(ours: ours, peer: peer), files)
    }

    /// One side's runs of one ceremony and client count, reduced to medians.
    struct Side {
        var rounds: Int
        var ceremoniesPerSecond: Double
        var serverMillisecondsPerCeremony: Double?
        var generatorMillisecondsPerCeremony: Double
        var p99: Double
        var errors: Int

        init?(_ runs: [LoadResult]) {
            guard !runs.isEmpty else { return nil }
            func median(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                let middle = sorted.count / 2
                return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            }
            func perCeremony(_ cores: Double?, _ run: LoadResult) -> Double? {
                guard let cores, run.ceremoniesPerSecond > 0 else { return nil }
                return cores / run.ceremoniesPerSecond * 1000
            }
            rounds = runs.count
            ceremoniesPerSecond = median(runs.map(\.ceremoniesPerSecond))
            let server = runs.compactMap { perCeremony($0.serverCores, $0) }
            serverMillisecondsPerCeremony = server.count == runs.count ? median(server) : nil
            generatorMillisecondsPerCeremony = median(runs.compactMap { perCeremony($0.generatorCores, $0) })
            p99 = median(runs.map(\.latency.p99))
            errors = runs.reduce(0) { $0 + $1.errors }
        }
    }

    func markdownTable(_ results: [LoadResult]) -> String {
        func ms(_ value: Double?) -> String {
            guard let value else { return "–" }
            return String(format: value < 10 ? "%.2f" : "%.1f", value)
        }
        func rate(_ value: Double) -> String { String(format: "%.0f", value) }
        func ratio(_ peer: Double?, _ ours: Double?) -> String {
            guard let peer, let ours, ours > 0 else { return "–" }
            return String(format: "%.2f×", peer / ours)
        }
        var text = """
            | Ceremony | Clients | Rounds (ours / peer) | Ceremonies/s ours | peer | peer ÷ ours | Server CPU ms per ceremony ours | peer | peer ÷ ours | p99 ms ours | peer | peer ÷ ours | Generator CPU ms per ceremony ours / peer | Errors ours / peer |
            | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |

            """
        var keys: [(CeremonyKind, Int)] = []
        for result in results where result.label == ours || result.label == peer {
            if !keys.contains(where: { $0 == (result.kind, result.concurrency) }) {
                keys.append((result.kind, result.concurrency))
            }
        }
        for (kind, concurrency) in keys {
            let runs = results.filter { $0.kind == kind && $0.concurrency == concurrency }
            guard let a = Side(runs.filter { $0.label == ours }), let b = Side(runs.filter { $0.label == peer }) else {
                continue
            }
            text +=
                "| \(kind.rawValue) | \(concurrency) | \(a.rounds) / \(b.rounds) | \(rate(a.ceremoniesPerSecond)) | \(rate(b.ceremoniesPerSecond)) | \(ratio(b.ceremoniesPerSecond, a.ceremoniesPerSecond)) | \(ms(a.serverMillisecondsPerCeremony)) | \(ms(b.serverMillisecondsPerCeremony)) | \(ratio(b.serverMillisecondsPerCeremony, a.serverMillisecondsPerCeremony)) | \(ms(a.p99)) | \(ms(b.p99)) | \(ratio(b.p99, a.p99)) | \(ms(a.generatorMillisecondsPerCeremony)) / \(ms(b.generatorMillisecondsPerCeremony)) | \(a.errors) / \(b.errors) |\n"
        }
        text += """

            Ours: "\(ours)"; peer: "\(peer)". Each cell is the median of that side's rounds.
            Peer ÷ ours below 1 for ceremonies/s, or above 1 for CPU and p99, is in our favour.

            """
        return text
    }
}
