import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's CPU time (all threads, user + system) and context switches so far.
struct Usage {
    var cpuSeconds: Double
    var voluntarySwitches: Int
    var involuntarySwitches: Int

    static func now() -> Usage {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Usage(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            voluntarySwitches: usage.ru_nvcsw,
            involuntarySwitches: usage.ru_nivcsw
        )
    }
}

/// CPU seconds (user + system) of each of the process's threads so far, by thread id (Linux only).
func threadCPUSeconds() -> [String: Double] {
    #if os(Linux)
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var seconds: [String: Double] = [:]
    guard let directory = opendir("/proc/self/task") else { return [:] }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard !name.hasPrefix("."), let file = fopen("/proc/self/task/\(name)/stat", "r") else { continue }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { continue }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        guard let close = line.lastIndex(of: ")") else { continue }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
        seconds[name] = (user + system) / ticks
    }
    return seconds
    #else
    return [:]
    #endif
}

/// The machine's busy CPU seconds so far, all processes (from /proc/stat; Linux only).
func machineBusySeconds() -> Double {
    #if os(Linux)
    guard let file = fopen("/proc/stat", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // cpu user nice system idle iowait irq softirq steal …: busy is all but idle and iowait.
    let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
    guard ticks.count == 8 else { return 0 }
    return (ticks.reduce(0, +) - ticks[3] - ticks[4]) / Double(sysconf(Int32(_SC_CLK_TCK)))
    #else
    return 0
    #endif
}

/// One measured window of one engine at one number of clients.
struct RunResult {
    var ceremonies: Int
    var seconds: Double
    var cpuSeconds: Double
    var voluntarySwitches: Int
    var involuntarySwitches: Int
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    /// The CPU time of the busiest thread over the window's length: near 1 when one thread (the connection's)
    /// is the bottleneck.
    var busiestThread: Double
    /// The CPU the machine's other processes used during the window, in cores.
    var othersCores: Double

    var perSecond: Double { Double(ceremonies) / seconds }
    var cpuMicrosecondsPerCeremony: Double { cpuSeconds * 1e6 / Double(ceremonies) }
    var switchesPerCeremony: Double { Double(voluntarySwitches + involuntarySwitches) / Double(ceremonies) }

    /// Tab-separated, for the parent process.
    var line: String {
        [
            "\(ceremonies)", "\(seconds)", "\(cpuSeconds)", "\(voluntarySwitches)", "\(involuntarySwitches)",
            "\(p50Milliseconds)", "\(p99Milliseconds)", "\(busiestThread)", "\(othersCores)",
        ].joined(separator: "\t")
    }

    init(
        ceremonies: Int,
        seconds: Double,
        cpuSeconds: Double,
        voluntarySwitches: Int,
        involuntarySwitches: Int,
        p50Milliseconds: Double,
        p99Milliseconds: Double,
        busiestThread: Double,
        othersCores: Double
    ) {
        self.ceremonies = ceremonies
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
        self.p50Milliseconds = p50Milliseconds
        self.p99Milliseconds = p99Milliseconds
        self.busiestThread = busiestThread
        self.othersCores = othersCores
    }

    init?(line: Substring) {
        let fields = line.split(separator: "\t")
        guard fields.count == 9, let busiest = Double(fields[7]), let others = Double(fields[8]),
            let ceremonies = Int(fields[0]), let seconds = Double(fields[1]),
            let cpu = Double(fields[2]), let voluntary = Int(fields[3]), let involuntary = Int(fields[4]),
            let p50 = Double(fields[5]), let p99 = Double(fields[6])
        else { return nil }
        self.init(
            ceremonies: ceremonies,
            seconds: seconds,
            cpuSeconds: cpu,
            voluntarySwitches: voluntary,
            involuntarySwitches: involuntary,
            p50Milliseconds: p50,
            p99Milliseconds: p99,
            busiestThread: busiest,
            othersCores: others
        )
    }
}

/// Where the clients are: warming up, measured, or stopping.
final class Phase: Sendable {
    static let warmingUp = 0
    static let measured = 1
    static let stopping = 2
    let value = Atomic<Int>(Phase.warmingUp)
    let measuredCeremonies = Atomic<Int>(0)
    let allCeremonies = Atomic<Int>(0)
}

/// Runs sign-ins from `clients` concurrent tasks: `warmup` seconds, then a measured window of `seconds`.
func measure(
    _ store: some SignInStore,
    clients: Int,
    users: Int,
    warmup: Double,
    seconds: Double
) async throws -> RunResult {
    let phase = Phase()
    return try await withThrowingTaskGroup(of: [Double].self) { group in
        for number in 0..<clients {
            group.addTask {
                var client = Client(number: number, clients: clients, users: users)
                var latencies: [Double] = []
                let clock = ContinuousClock()
                while phase.value.load(ordering: .relaxed) != Phase.stopping {
                    let start = clock.now
                    try await client.signIn(store)
                    phase.allCeremonies.add(1, ordering: .relaxed)
                    if phase.value.load(ordering: .relaxed) == Phase.measured {
                        phase.measuredCeremonies.add(1, ordering: .relaxed)
                        let elapsed = (clock.now - start).components
                        latencies.append(Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15)
                    }
                }
                return latencies
            }
        }
        let clock = ContinuousClock()
        try await Task.sleep(for: .milliseconds(Int(warmup * 1000)))
        let threadsBefore = threadCPUSeconds()
        let before = Usage.now()
        let machineBefore = machineBusySeconds()
        let start = clock.now
        phase.value.store(Phase.measured, ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        phase.value.store(Phase.stopping, ordering: .relaxed)
        let after = Usage.now()
        let machineAfter = machineBusySeconds()
        let threadsAfter = threadCPUSeconds()
        let elapsed = (clock.now - start).components
        let ceremonies = phase.measuredCeremonies.load(ordering: .relaxed)
        var latencies: [Double] = []
        for try await clientLatencies in group { latencies += clientLatencies }
        latencies.sort()
        try await store.verify(ceremonies: phase.allCeremonies.load(ordering: .relaxed))
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let window = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let busiest = threadsAfter.map { $0.value - (threadsBefore[$0.key] ?? 0) }.max() ?? 0
        return RunResult(
            ceremonies: ceremonies,
            seconds: window,
            cpuSeconds: after.cpuSeconds - before.cpuSeconds,
            voluntarySwitches: after.voluntarySwitches - before.voluntarySwitches,
            involuntarySwitches: after.involuntarySwitches - before.involuntarySwitches,
            p50Milliseconds: percentile(0.5),
            p99Milliseconds: percentile(0.99),
            busiestThread: busiest / window,
            othersCores: max(0, machineAfter - machineBefore - (after.cpuSeconds - before.cpuSeconds)) / window
        )
    }
}
