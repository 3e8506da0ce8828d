#!/usr/bin/env bash
# Builds the libFuzzer targets of the WebAuthn library and runs each for a number of seconds.
#
#   Fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     fuzz (default: 60 s each, all targets)
#   Fuzz/run.sh --regressions                        run every saved input in Fuzz/regressions once
#
# Targets: FuzzCBOR FuzzAuthenticatorData FuzzAttestationObject FuzzJSONFastPath FuzzRegistrationJSON
# FuzzAuthenticationJSON.
# The corpus lives in Fuzz/corpus/<target>/ (gitignored) and grows across runs; it is seeded from the
# conformance corpus (../shared/conformance/cases/*.json next to the repository) when that is present.
# Crashes, leaks and time-outs are written to Fuzz/corpus/artifacts/; copy a minimised one into
# Fuzz/regressions/<target>/ so that --regressions replays it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# The Swift runtime's backtracer reads memory in a way AddressSanitizer reports as a second, unrelated error;
# libFuzzer prints the stack of a crash itself.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
cd "$here"
all_targets=(FuzzCBOR FuzzAuthenticatorData FuzzAttestationObject FuzzJSONFastPath FuzzRegistrationJSON FuzzAuthenticationJSON)
build_flags=(-c debug -Xswiftc -sanitize=fuzzer,address)

echo "Building the fuzz targets (debug, -sanitize=fuzzer,address)..."
# Product by product: a plain `swift build` would also link the parent package's executable, which has no
# fuzz target. The linker's "Cannot export local symbol '__asan_...'" warnings are harmless.
for target in "${all_targets[@]}"; do
    swift build "${build_flags[@]}" --product "$target" 2>&1 | grep -v "Cannot export local symbol" || true
    [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "Building $target failed." >&2; exit 1; }
done
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

if [[ "${1:-}" == "--regressions" ]]; then
    status=0
    for target in "${all_targets[@]}"; do
        inputs=(regressions/"$target"/*)
        [[ -e "${inputs[0]}" ]] || continue
        echo "== $target: ${#inputs[@]} regression input(s)"
        "$bin/$target" -runs=1 "${inputs[@]}" || status=1
    done
    exit $status
fi

seconds="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

cases="$here/../../shared/conformance/cases"
if [[ -d "$cases" ]] && command -v python3 > /dev/null; then
    python3 Scripts/seed_corpus.py "$cases" corpus
else
    echo "No conformance corpus at $cases (or no python3): starting from empty corpora."
fi
mkdir -p corpus/artifacts

failed=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    echo "== $target for ${seconds}s"
    # -timeout: an input slower than 10 s is reported as a hang; -rss_limit_mb bounds memory.
    # A target that finds a crash stops; the others still run, and the script fails at the end.
    "$bin/$target" "corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="corpus/artifacts/$target-" || failed+=("$target")
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "Found a crash, leak or time-out in: ${failed[*]} (inputs in Fuzz/corpus/artifacts/)." >&2
    exit 1
fi
