// Speed targets that are ratios, measured side by side in one run so machine noise
// cancels out. Exits 1 when a target is missed. Run in release:
//   swift run -c release --package-path Benchmarks benchmark-ratios
import BenchmarkSupport
import Foundation
@_spi(Benchmarks) import StreamRender

struct Check {
    var name: String
    var ratio: Double
    var target: Double
    var detail: String
}

var checks: [Check] = []

// `benchmark-ratios profile-sse` runs only StreamRender's SSE decode, for perf/callgrind.
if CommandLine.arguments.dropFirst().first == "profile-sse" {
    let stream = Corpus.anthropicStream(size: 30_000_000)
    var sink = 0
    for _ in 0..<5 { sink &+= Corpus.decodeWithStreamRender(stream) }
    print("text bytes x5: \(sink)")
    exit(0)
}
let megabyte = 1_048_576.0

// Issue 2: ASCII-heavy segmentation + width at least 10x ICU-only throughput.
do {
    let ascii = Corpus.asciiHeavy1MB
    let cjk = Corpus.cjkEmojiHeavy1MB
    var sink = 0
    let fast = medianSeconds(runs: 7) { sink &+= Corpus.segmentAndMeasure(ascii) }
    let icu = medianSeconds(runs: 3) { sink &+= Corpus.segmentAndMeasure(ascii, fastPath: false) }
    let cjkFast = medianSeconds(runs: 3) { sink &+= Corpus.segmentAndMeasure(cjk) }
    let asciiWc = medianSeconds(runs: 7) { sink &+= Corpus.segmentAndMeasure(ascii, policy: .wcwidth) }
    let fastMBs = Double(ascii.count) / megabyte / fast
    let icuMBs = Double(ascii.count) / megabyte / icu
    let cjkMBs = Double(cjk.count) / megabyte / cjkFast
    checks.append(Check(
        name: "segmentation+width, ASCII-heavy 1 MB: fast path vs ICU only",
        ratio: icu / fast, target: 10,
        detail: String(format: "fast %.1f MB/s, ICU only %.1f MB/s, CJK/emoji-heavy 1 MB %.1f MB/s, ASCII wcwidth %.1f MB/s",
                       fastMBs, icuMBs, cjkMBs, Double(ascii.count) / megabyte / asciiWc)))

    let fastBreaker = LineBreaker()
    let icuBreaker = LineBreaker()
    icuBreaker.usesASCIIFastPath = false
    let lbFast = medianSeconds(runs: 7) { sink &+= Corpus.lineBreaks(ascii, breaker: fastBreaker) }
    let lbICU = medianSeconds(runs: 3) { sink &+= Corpus.lineBreaks(ascii, breaker: icuBreaker) }
    checks.append(Check(
        name: "line breaks, ASCII-heavy 1 MB: fast path vs ICU only",
        ratio: lbICU / lbFast, target: 1,
        detail: String(format: "fast %.1f MB/s, ICU only %.1f MB/s",
                       Double(ascii.count) / megabyte / lbFast, Double(ascii.count) / megabyte / lbICU)))
    if sink == 42 { print("") }  // keep the work observable
}

// Issue 3: SSE bytes to text deltas, 30 MB Anthropic stream, vs lines + JSONDecoder.
do {
    let stream = Corpus.anthropicStream(size: 30_000_000)
    let ours = Corpus.decodeWithStreamRender(stream)
    let naive = Corpus.decodeNaively(stream)
    precondition(ours == naive, "the two decoders disagree: \(ours) vs \(naive) text bytes")
    var sink = 0
    let fast = medianSeconds(runs: 5) { sink &+= Corpus.decodeWithStreamRender(stream) }
    let slow = medianSeconds(runs: 3) { sink &+= Corpus.decodeNaively(stream) }
    let mb = Double(stream.count) / megabyte
    checks.append(Check(
        name: "SSE to text deltas, \(String(format: "%.0f", mb)) MB Anthropic stream: StreamRender vs lines + JSONDecoder",
        ratio: slow / fast, target: 10,
        detail: String(format: "StreamRender %.1f MB/s, baseline %.1f MB/s", mb / fast, mb / slow)))
    if sink == 42 { print("") }
}

var failed = false
for check in checks {
    let ok = check.ratio >= check.target
    failed = failed || !ok
    print(String(format: "%@ %@: %.1fx (target >= %.0fx)", ok ? "PASS" : "FAIL", check.name, check.ratio, check.target))
    print("     \(check.detail)")
}
exit(failed ? 1 : 0)
