import Benchmark
import BenchmarkFixtures
import WebAuthn

// Full verification from the JSON text (bytes → response type → ceremony verify) for registration with
// `none`, `packed` self and `packed` x5c attestation and for authentication, next to swift-crypto's raw
// check of the same signature over the same data (the ceiling for authentication).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.throughput: .count],
        warmupIterations: 20,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )

    for algorithm in [COSEAlgorithmIdentifier.es256, .edDSA, .rs256] {
        // Fixture construction only fails if the test authenticator or certificate authority breaks.
        let fixtures = try! AlgorithmFixtures(algorithm)
        let name = algorithm.name

        Benchmark("Raw signature verify \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(fixtures.rawSignature.verify())
            }
        }
        Benchmark("Authentication \(name) (JSON → verify)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try fixtures.verifyAuthentication())
            }
        }
        for (attestation, json) in [
            ("none", fixtures.registrationNone),
            ("packed self", fixtures.registrationPackedSelf),
            ("packed x5c", fixtures.registrationPackedCertificate),
        ] {
            Benchmark("Registration \(attestation) \(name) (JSON → verify)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try await fixtures.verifyRegistration(json))
                }
            }
        }
    }
}
