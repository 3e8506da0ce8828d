import CFuzzerDriver
import Foundation

/// A fuzz target's test: one input, return 0 (libFuzzer's LLVMFuzzerTestOneInput contract).
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Hands the process to libFuzzer with `test` as the target.
///
/// SwiftPM links every executable with its entry point renamed to `<Target>_main` (and `main` defined as
/// that symbol), so each target has a `@main` that calls this; libFuzzer then reads the command line as its
/// own `main` would. Each target also exports its test as `LLVMFuzzerTestOneInput`, which libFuzzer's
/// `main` object (linked in by -sanitize=fuzzer) refers to; both entry points run the same fuzzer.
public func runFuzzer(_ test: FuzzTest) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// The input bytes as an array (empty for a null pointer).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
}
