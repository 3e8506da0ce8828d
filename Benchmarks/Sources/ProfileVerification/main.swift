import BenchmarkFixtures
import Dispatch
import WebAuthn

// Runs one verification in a loop, for instruction-level profiling outside the benchmark harness
// (see docs/benchmarks.md): ProfileVerification auth|raw|none|self|x5c es256|eddsa|rs256 ITERATIONS
// `auth` and `raw` never start the concurrency runtime (valgrind 3.19 crashed on an async top level); the
// registration modes run their loop in one detached task.
let arguments = CommandLine.arguments
let kind = arguments.count > 1 ? arguments[1] : "auth"
let algorithmName = arguments.count > 2 ? arguments[2] : "es256"
let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000

let algorithm: COSEAlgorithmIdentifier
switch algorithmName {
case "eddsa": algorithm = .edDSA
case "rs256": algorithm = .rs256
default: algorithm = .es256
}

let fixtures = try AlgorithmFixtures(algorithm)
var verified = 0
switch kind {
case "raw":
    for _ in 0..<iterations where fixtures.rawSignature.verify() { verified += 1 }
case "auth":
    for _ in 0..<iterations {
        _ = try fixtures.verifyAuthentication()
        verified += 1
    }
default:
    let json =
        kind == "self"
        ? fixtures.registrationPackedSelf
        : kind == "x5c" ? fixtures.registrationPackedCertificate : fixtures.registrationNone
    let semaphore = DispatchSemaphore(value: 0)
    Task.detached {
        for _ in 0..<iterations { _ = try await fixtures.verifyRegistration(json) }
        semaphore.signal()
    }
    semaphore.wait()
    verified = iterations
}
print("\(kind) \(algorithm.name): \(verified) of \(iterations) verified")
