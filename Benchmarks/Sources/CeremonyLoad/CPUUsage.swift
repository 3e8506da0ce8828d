import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time, in seconds, of this process, of other processes (from `/proc`), and of the whole machine.
enum CPUUsage {
    /// User plus system time of this process (`getrusage`).
    static func ownSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Fields of `/proc/PID/stat` after the command name: state is [0], ppid [1], utime [11], stime [12].
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// User plus system time of a process, or nil when it cannot be read (not Linux, or gone).
    static func processSeconds(_ pid: Int32) -> Double? {
        guard let fields = statFields(pid), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else {
            return nil
        }
        return (user + system) / ticksPerSecond
    }

    /// Time of a process and of its children now running (a PostgreSQL server and its backends).
    static func processTreeSeconds(_ parent: Int32) -> Double? {
        guard var total = processSeconds(parent) else { return nil }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), pid != parent, let fields = statFields(pid), fields.count > 12,
                fields[1] == Substring(String(parent)), let user = Double(fields[11]), let system = Double(fields[12])
            else { continue }
            total += (user + system) / ticksPerSecond
        }
        return total
    }

    /// Busy and total time of all CPUs (first line of `/proc/stat`; idle and iowait count as not busy).
    static func machineSeconds() -> (busy: Double, total: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first,
            line.hasPrefix("cpu ")
        else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is included in user already).
        let values = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
        guard values.count == 8 else { return nil }
        let total = values.reduce(0, +)
        return ((total - values[3] - values[4]) / ticksPerSecond, total / ticksPerSecond)
    }

    /// Context switches, voluntary and not, of all the threads of a process so far (`/proc/PID/task/*/status`);
    /// nil when they cannot be read.
    static func contextSwitches(_ pid: Int32) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0.0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += Double(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }

    /// The 1-minute load average.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }
}

/// CPU counters read at one moment, to subtract from a later reading.
struct CPUSnapshot: Sendable {
    let time: ContinuousClock.Instant
    let own: Double
    let server: Double?
    let serverSwitches: Double?
    let database: Double?
    let machineBusy: Double?
    let machineTotal: Double?

    static func take(serverPID: Int32?, databasePID: Int32?) -> CPUSnapshot {
        let machine = CPUUsage.machineSeconds()
        return CPUSnapshot(
            time: .now,
            own: CPUUsage.ownSeconds(),
            server: serverPID.flatMap(CPUUsage.processSeconds),
            serverSwitches: serverPID.flatMap(CPUUsage.contextSwitches),
            database: databasePID.flatMap(CPUUsage.processTreeSeconds),
            machineBusy: machine?.busy,
            machineTotal: machine?.total
        )
    }
}
