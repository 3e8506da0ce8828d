import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import PasskeyTesting

/// A user registered during setup, owned by one virtual client (so its signature counter only goes up).
struct PooledUser: Sendable {
    let id: String
    var authenticator: TestAuthenticator
}

/// What one virtual client recorded.
struct ClientRecord: Sendable {
    var ceremonyNanoseconds: [Int64] = []
    var stepNanoseconds: [[Int64]]
    var errors = 0
    var errorKinds: [String: Int] = [:]

    init(steps: Int) { stepNanoseconds = Array(repeating: [], count: steps) }
}

struct LoadRun {
    let options: LoadOptions

    func run() async throws -> LoadResult {
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: options.concurrency
        )
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        let http = HTTPClient(eventLoopGroup: eventLoops, configuration: configuration)
        let budget = RequestBudget(limit: options.maxRequests)
        let client = CeremonyClient(
            http: http,
            baseURL: options.url.hasSuffix("/") ? String(options.url.dropLast()) : options.url,
            apiKey: options.apiKey,
            origin: options.effectiveOrigin,
            rpID: options.rpID,
            timeout: .milliseconds(Int64(options.requestTimeout * 1000)),
            budget: budget
        )
        do {
            let result = try await measure(client, budget: budget)
            try await http.shutdown()
            try await eventLoops.shutdownGracefully()
            return result
        } catch {
            try? await http.shutdown()
            try? await eventLoops.shutdownGracefully()
            throw error
        }
    }

    /// A prefix that keeps this run's user ids apart from earlier runs on the same database.
    private static let runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)

    private func measure(_ client: CeremonyClient, budget: RequestBudget) async throws -> LoadResult {
        let concurrency = options.concurrency
        let kind = options.kind
        let loadBefore = CPUUsage.loadAverage()

        // Setup: the users that sign in, registered over HTTP by `concurrency` clients, each keeping its own.
        var pools = Array(repeating: [PooledUser](), count: concurrency)
        if kind.signsIn {
            let users = options.effectiveUsers
            let setupStart = ContinuousClock.now
            pools = try await withThrowingTaskGroup(of: [PooledUser].self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        var mine: [PooledUser] = []
                        var ignored: [StepTiming] = []
                        for index in stride(from: worker, to: users, by: concurrency) {
                            let id = "load-\(Self.runID)-user-\(index)"
                            mine.append(
                                PooledUser(
                                    id: id,
                                    authenticator: try await client.register(userID: id, timings: &ignored)
                                )
                            )
                            ignored.removeAll(keepingCapacity: true)
                        }
                        return mine
                    }
                }
                var pools = Array(repeating: [PooledUser](), count: concurrency)
                var worker = 0
                for try await pool in group {
                    pools[worker] = pool
                    worker += 1
                }
                return pools
            }
            print(
                "setup: registered \(users) users in \(String(format: "%.1f", (ContinuousClock.now - setupStart).seconds)) s"
            )
        }

        let start = ContinuousClock.now + .seconds(options.warmup)
        let end = start + .seconds(options.duration)
        let steps = kind.steps.count
        let options = self.options

        // CPU counters at both ends of the window, read by a task of their own.
        async let snapshots: (CPUSnapshot, CPUSnapshot) = {
            try? await Task.sleep(until: start, clock: .continuous)
            let first = CPUSnapshot.take(serverPID: options.serverPID, databasePID: options.databasePID)
            try? await Task.sleep(until: end, clock: .continuous)
            return (first, CPUSnapshot.take(serverPID: options.serverPID, databasePID: options.databasePID))
        }()

        let records = try await withThrowingTaskGroup(of: ClientRecord.self) { group in
            for worker in 0..<concurrency {
                let pool = pools[worker]
                group.addTask {
                    var record = ClientRecord(steps: steps)
                    var users = pool
                    var next = 0
                    var timings: [StepTiming] = []
                    timings.reserveCapacity(steps)
                    loop: while ContinuousClock.now < end {
                        let began = ContinuousClock.now
                        timings.removeAll(keepingCapacity: true)
                        var failure: RequestFailure?
                        do {
                            switch kind {
                            case .registration:
                                next += 1
                                _ = try await client.register(
                                    userID: "load-\(Self.runID)-reg-\(worker)-\(next)",
                                    timings: &timings
                                )
                            case .signin, .stepup:
                                next = (next + 1) % users.count
                                try await client.signIn(
                                    userID: users[next].id,
                                    stepUp: kind == .stepup,
                                    authenticator: &users[next].authenticator,
                                    timings: &timings
                                )
                            }
                        } catch let error as RequestFailure {
                            failure = error
                        } catch is BudgetSpent {
                            print("stopping: the request budget (\(options.maxRequests)) is spent")
                            break loop
                        }
                        let ended = ContinuousClock.now
                        for timing in timings where timing.end >= start && timing.end <= end {
                            record.stepNanoseconds[timing.step].append(timing.duration.nanoseconds)
                        }
                        guard ended >= start, ended <= end else { continue }
                        if let failure {
                            record.errors += 1
                            record.errorKinds[failure.summary, default: 0] += 1
                            // A failed sign-in may leave the counter ahead of the server's record: that is harmless,
                            // since the counter only needs to increase.
                        } else {
                            record.ceremonyNanoseconds.append((ended - began).nanoseconds)
                        }
                    }
                    return record
                }
            }
            var records: [ClientRecord] = []
            for try await record in group { records.append(record) }
            return records
        }
        let (first, last) = await snapshots
        let measured = min(ContinuousClock.now, end) - start
        let seconds = max(measured.seconds, 0.001)

        var ceremonies: [Int64] = []
        var stepSamples = Array(repeating: [Int64](), count: steps)
        var errors = 0
        var errorKinds: [String: Int] = [:]
        for record in records {
            ceremonies += record.ceremonyNanoseconds
            for step in 0..<steps { stepSamples[step] += record.stepNanoseconds[step] }
            errors += record.errors
            errorKinds.merge(record.errorKinds, uniquingKeysWith: +)
        }
        let window = (last.time - first.time).seconds
        func cores(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, window > 0 else { return nil }
            return (b - a) / window
        }
        let machineCores: Double? = {
            guard let busy0 = first.machineBusy, let busy1 = last.machineBusy, let total0 = first.machineTotal,
                let total1 = last.machineTotal,
                total1 > total0
            else { return nil }
            return (busy1 - busy0) / (total1 - total0) * Double(ProcessInfo.processInfo.activeProcessorCount)
        }()
        let formatter = ISO8601DateFormatter()
        return LoadResult(
            label: options.label,
            kind: kind,
            concurrency: concurrency,
            warmupSeconds: options.warmup,
            measuredSeconds: seconds,
            ceremonies: ceremonies.count,
            ceremoniesPerSecond: Double(ceremonies.count) / seconds,
            errors: errors,
            errorKinds: errorKinds,
            latency: Percentiles(nanoseconds: ceremonies),
            steps: zip(kind.steps, stepSamples).map {
                LoadResult.Step(name: $0, latency: Percentiles(nanoseconds: $1))
            },
            requestsPerSecond: Double(stepSamples.reduce(0) { $0 + $1.count }) / seconds,
            requestsSent: budget.count,
            cpus: ProcessInfo.processInfo.activeProcessorCount,
            generatorCores: cores(first.own, last.own) ?? 0,
            serverCores: cores(first.server, last.server),
            serverSwitchesPerCeremony: {
                guard let a = first.serverSwitches, let b = last.serverSwitches, !ceremonies.isEmpty else { return nil }
                return (b - a) / (Double(ceremonies.count) * window / seconds)
            }(),
            databaseCores: cores(first.database, last.database),
            machineBusyCores: machineCores,
            loadAverageBefore: loadBefore,
            date: formatter.string(from: Date())
        )
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var seconds: Double { Double(nanoseconds) / 1_000_000_000 }
}
