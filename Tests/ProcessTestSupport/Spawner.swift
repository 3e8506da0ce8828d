import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``ChildProcess/launch(_:_:environment:directory:input:output:error:)`` asks the spawner to start.
struct SpawnRequest: Sendable {
    let executable: String
    let arguments: [String]
    /// `NAME=value` strings.
    let environment: [String]
    let directory: String?
    let pipedInput: Bool
    let outputPath: String
    let errorPath: String
}

/// A started child: its id and, for a piped input, the write end of the pipe.
struct SpawnedChild: Sendable {
    let pid: pid_t
    let input: Int32?
}

/// The one thread that starts every child process of the tests, one at a time.
///
/// One thread, because a parent-death signal (`setpriv --pdeathsig`) fires when the *thread* that started the child
/// ends, and the threads of Swift's concurrency pool come and go: this one lives as long as the test process. One
/// at a time, so that no two starts ever overlap.
final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    /// The `setpriv` that starts a child with a parent-death signal; without it children are started directly
    /// (they then outlive a test process that crashes).
    private static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private final class Job: @unchecked Sendable {
        let request: SpawnRequest
        var result: Result<SpawnedChild, SpawnFailure>?
        let done = DispatchSemaphore(value: 0)
        init(_ request: SpawnRequest) { self.request = request }
    }

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var pending: [Job] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "passkeys-tests-spawner"
        thread.start()
    }

    /// Starts the request's program on the spawner thread and returns once it has started (or failed to).
    func spawn(_ request: SpawnRequest) -> Result<SpawnedChild, SpawnFailure> {
        let job = Job(request)
        condition.lock()
        pending.append(job)
        condition.signal()
        condition.unlock()
        job.done.wait()
        return job.result ?? .failure(SpawnFailure("the spawner gave no answer"))
    }

    private func serve() {
        while true {
            condition.lock()
            while pending.isEmpty { condition.wait() }
            let job = pending.removeFirst()
            condition.unlock()
            job.result = Self.start(job.request)
            job.done.signal()
        }
    }

    private static func start(_ request: SpawnRequest) -> Result<SpawnedChild, SpawnFailure> {
        guard FileManager.default.isExecutableFile(atPath: request.executable) else {
            return .failure(SpawnFailure("no executable at \(request.executable)"))
        }
        var pipe: [Int32] = [-1, -1]
        if request.pipedInput {
            // Close-on-exec at once: only this thread starts children, so no other child can inherit the pipe.
            guard Glibc.pipe(&pipe) == 0, fcntl(pipe[0], F_SETFD, FD_CLOEXEC) == 0,
                fcntl(pipe[1], F_SETFD, FD_CLOEXEC) == 0
            else {
                closePipe(pipe)
                return .failure(SpawnFailure("no pipe for standard input (errno \(errno))"))
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var failed = Int32(0)
        func check(_ result: Int32) { if failed == 0 { failed = result } }
        if request.pipedInput {
            check(posix_spawn_file_actions_adddup2(&actions, pipe[0], 0))
        } else {
            check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        }
        check(posix_spawn_file_actions_addopen(&actions, 1, request.outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        if request.errorPath == request.outputPath {
            check(posix_spawn_file_actions_adddup2(&actions, 1, 2))
        } else {
            check(posix_spawn_file_actions_addopen(&actions, 2, request.errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        }
        if let closeFrom = GlibcExtensions.addCloseFrom { check(closeFrom(&actions, 3)) }
        if let directory = request.directory {
            guard let changeDirectory = GlibcExtensions.addChangeDirectory else {
                return .failure(SpawnFailure("this C library cannot start a child in another directory"))
            }
            check(changeDirectory(&actions, directory))
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so a kill reaches what it starts), no signal blocked, and every signal at its
        // default: a test runner may have left SIGTERM ignored, which a child would inherit.
        check(
            posix_spawnattr_setflags(
                &attributes,
                Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
            )
        )
        check(posix_spawnattr_setpgroup(&attributes, 0))
        var none = sigset_t()
        sigemptyset(&none)
        check(posix_spawnattr_setsigmask(&attributes, &none))
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        check(posix_spawnattr_setsigdefault(&attributes, &all))
        guard failed == 0 else {
            closePipe(pipe)
            return .failure(SpawnFailure("the spawn could not be prepared (error \(failed))"))
        }

        let program = setpriv ?? request.executable
        let argv = (setpriv.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []) + [request.executable] + request.arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = request.environment.map { strdup($0) } + [nil]
        defer {
            for string in cArguments + cEnvironment { free(string) }
        }
        var pid = pid_t(0)
        let result = posix_spawn(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        if request.pipedInput { close(pipe[0]) }
        guard result == 0 else {
            if request.pipedInput { close(pipe[1]) }
            return .failure(SpawnFailure(String(cString: strerror(result))))
        }
        return .success(SpawnedChild(pid: pid, input: request.pipedInput ? pipe[1] : nil))
    }

    private static func closePipe(_ pipe: [Int32]) {
        for descriptor in pipe where descriptor >= 0 { close(descriptor) }
    }
}

/// Why the spawner could not start a child.
struct SpawnFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29), which its headers declare
/// only for `_GNU_SOURCE` and Swift therefore does not import: looked up by name, nil where the C library lacks them.
private enum GlibcExtensions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let addCloseFrom = symbol("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
    static let addChangeDirectory = symbol("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)

    private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
