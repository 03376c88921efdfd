// Speed targets that are ratios, measured side by side in one run so machine noise
// cancels out. Exits 1 when a target is missed. Run in release:
//   swift run -c release --package-path Benchmarks benchmark-ratios
import BenchmarkSupport
import Foundation
@_spi(Benchmarks) import StreamRender

struct Check {
    var name: String
    var ratio: Double
    /// nil: a figure to record, not a target.
    var target: Double?
    var detail: String
}

var checks: [Check] = []

/// Prints the checks; exits 1 when a target is missed.
func report(_ checks: [Check]) -> Never {
    var failed = false
    for check in checks {
        guard let target = check.target else {
            print(String(format: "RECORD %@: %.2f", check.name, check.ratio))
            print("     \(check.detail)")
            continue
        }
        let ok = check.ratio >= target
        failed = failed || !ok
        print(String(format: "%@ %@: %.2f (target >= %.0f)", ok ? "PASS" : "FAIL", check.name, check.ratio, target))
        print("     \(check.detail)")
    }
    exit(failed ? 1 : 0)
}

// `benchmark-ratios pipeline` runs only the issue 9 checks (the whole pipeline).
let onlyPipeline = CommandLine.arguments.dropFirst().first == "pipeline"
// `benchmark-ratios markdown` runs only the issue 10 checks (library level).
let onlyMarkdown = CommandLine.arguments.dropFirst().first == "markdown"
// `benchmark-ratios mdflow` runs only the issue 24 checks (beside mdflow).
let onlyMdflow = CommandLine.arguments.dropFirst().first == "mdflow"

// Issue 11: highlighting. One pass over each language's corpus (at least 50 MB/s),
// and per-delta cost along an 800-line fence of each language (last 100 lines within
// 1.5x of the first 100). `benchmark-ratios highlight` runs only these.
if CommandLine.arguments.dropFirst().first == "highlight" || CommandLine.arguments.count == 1 {
    var sink = 0
    var slowest = (name: "", mbs: Double.infinity), total = 0.0, bytes = 0
    var rows: [String] = []
    var worstFence = (name: "", ratio: 0.0, first: 0.0, last: 0.0)
    for language in HighlightLanguage.all {
        guard let corpus = Corpus.highlightCorpus(language.name) else { continue }
        // The corpus repeated to about 1 MB, lexed in one pass.
        let text = String(repeating: corpus, count: max(1, 1_000_000 / max(1, corpus.utf8.count)))
        let seconds = minimumSeconds(runs: 5) { sink &+= Corpus.highlight(text, language) }
        let mbs = Double(text.utf8.count) / 1e6 / seconds
        total += seconds
        bytes += text.utf8.count
        if mbs < slowest.mbs { slowest = (language.name, mbs) }
        rows.append(String(format: "%@ %.0f", language.name, mbs))

        let fence = Corpus.pieces(Corpus.codeFence(language.name, corpus: corpus, lines: 800), size: 4)
        let (first, last, _, _) = Corpus.firstAndLastHundredLines(fence, runs: 3)
        if last / first > worstFence.ratio { worstFence = (language.name, last / first, first, last) }
    }
    checks.append(Check(
        name: "highlight, one pass over each language's corpus (repeated to 1 MB): slowest language MB/s / 50",
        ratio: slowest.mbs / 50, target: 1,
        detail: String(format: "slowest %@ %.0f MB/s; all languages %.0f MB/s; per language (MB/s): %@",
                       slowest.name, slowest.mbs, Double(bytes) / 1e6 / total, rows.joined(separator: ", "))))
    checks.append(Check(
        name: "highlight, 800-line fence of each language in 4-byte deltas, open line rendered per delta: worst last 100 lines vs first 100, 1.5 / (time ratio)",
        ratio: 1.5 / worstFence.ratio, target: 1,
        detail: String(format: "worst %@: first 100 lines %.3f ms, last 100 %.3f ms: %.2fx",
                       worstFence.name, worstFence.first * 1e3, worstFence.last * 1e3, worstFence.ratio)))
    if sink == 42 { print("") }
    if CommandLine.arguments.count > 1 { report(checks) }
}

// Issue 12: the pacer's per-frame cost. The 1 MB coding answer arriving at 100,000
// and at 10,000 clusters a second into an inline 80x24 view (markdown on), frames at
// 60 fps: a paced frame (pacer, reveal position, clipped lines, diff, encode) against
// an unpaced one at the same input. `benchmark-ratios pacing` runs only these.
if CommandLine.arguments.dropFirst().first == "pacing" || CommandLine.arguments.count == 1 {
    let deltas = Corpus.codingAnswerDeltas(textBytes: 1_000_000)
    var rows: [String] = []
    var worst = 0.0
    for rate in [100_000.0, 10_000.0] {
        // The 10,000/s run is ten times longer in simulated time: a tenth of the answer.
        let input = rate == 100_000 ? deltas : Array(deltas.prefix(deltas.count / 10))
        var paced = Corpus.PacedRun()
        var unpaced = paced
        _ = minimumSeconds(runs: 3) { paced = Corpus.pacedRun(input, unitsPerSecond: rate, pacing: .reading, markdown: true) }
        _ = minimumSeconds(runs: 3) { unpaced = Corpus.pacedRun(input, unitsPerSecond: rate, pacing: nil, markdown: true) }
        let perPaced = paced.tickSeconds / Double(max(1, paced.frames))
        let perUnpaced = unpaced.tickSeconds / Double(max(1, unpaced.frames))
        worst = max(worst, perPaced / perUnpaced)
        rows.append(String(format: "%.0f/s: paced %.1f µs/frame (%d frames, backlog up to %d, %d bytes), unpaced %.1f µs/frame (%d frames, %d bytes): %.2fx",
                           rate, perPaced * 1e6, paced.frames, paced.maximumBacklog, paced.bytes,
                           perUnpaced * 1e6, unpaced.frames, unpaced.bytes, perPaced / perUnpaced))
        if rate == 100_000 {
            checks.append(Check(
                name: "pacer at 100,000 clusters/s (1 MB answer, inline 80x24, markdown): a paced frame's cost as a share of the 16.7 ms frame budget, 0.1 / share",
                ratio: 0.1 / (perPaced / (1.0 / 60)), target: 1,
                detail: String(format: "paced frame %.1f µs = %.2f%% of a 60 fps frame", perPaced * 1e6, perPaced * 60 * 100)))
        }
    }
    // The pacer alone (counts only), per frame at 100,000 units/s.
    var pacer = Pacer(settings: .reading)
    var t = Duration.zero
    let frames = 200_000
    let seconds = minimumSeconds(runs: 3) {
        for _ in 0..<frames {
            t += .seconds(1) / 60
            pacer.receive(pacer.received + 1667, at: t)
            pacer.tick(at: t)
        }
    }
    checks.append(Check(
        name: "pacer at 100,000 and 10,000 clusters/s: a paced frame vs an unpaced one at the same input, 2 / (worst cost ratio)",
        ratio: 2 / worst, target: 1,
        detail: rows.joined(separator: "; ") + String(format: "; the Pacer alone: %.0f ns/frame", seconds / Double(frames) * 1e9)))
    if CommandLine.arguments.count > 1 { report(checks) }
}

// Issue 14: no performance cliffs. Each input class (hex, base64, one endless word,
// CJK without spaces, emoji runs, combining stacks, endless combining marks, tiny
// paragraphs, a 10 MB line) through a StreamRenderer as plain text in 4-byte pieces,
// plain output and the inline view (markdown on, unpaced, a frame every 17 pieces):
// its CPU time per byte at most 3x the coding answer's (prose). `benchmark-ratios
// cliffs` runs only these; CLIFFS_MB scales the classes (default 1; the line is 10x),
// CLIFFS_CLASSES=prose,long-line picks some (prose is always measured: the base).
// `benchmark-ratios profile-cliff CLASS [inline|plain]` renders one class, for perf.
if CommandLine.arguments.dropFirst().first == "profile-cliff" {
    let arguments = CommandLine.arguments
    let name = arguments.count > 2 ? arguments[2] : "long-line"
    let output = StreamRenderer.Configuration.Output(rawValue: arguments.count > 3 ? arguments[3] : "inline") ?? .inline
    guard let cliff = Corpus.cliffClasses().first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("no input class '\(name)'\n".utf8))
        exit(2)
    }
    let bytes = Corpus.renderText(Corpus.bytePieces(cliff.text, size: 4), output: output, markdown: true)
    print("\(name), \(output): \(bytes) bytes written")
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "cliffs" || CommandLine.arguments.count == 1 {
    let size = Int((Double(ProcessInfo.processInfo.environment["CLIFFS_MB"] ?? "1") ?? 1) * 1_048_576)
    let picked = ProcessInfo.processInfo.environment["CLIFFS_CLASSES"].map { Set($0.split(separator: ",").map(String.init) + ["prose"]) }
    let classes = Corpus.cliffClasses(size: size).filter { picked?.contains($0.name) ?? true }
    var sink = 0
    for (output, markdown) in [(StreamRenderer.Configuration.Output.plain, false), (.plain, true), (.inline, true)] {
        let mode = "\(output)\(markdown ? "" : ", markdown off")"
        var proseNsPerByte = 0.0
        var rows: [String] = []
        var worst = (name: "", ratio: 0.0)
        for cliff in classes {
            let pieces = Corpus.bytePieces(cliff.text, size: 4)
            let bytes = Double(cliff.text.utf8.count)
            let runs = cliff.name == "long-line" ? 1 : 3
            let seconds = minimumSeconds(runs: runs) { sink &+= Corpus.renderText(pieces, output: output, markdown: markdown) }
            let nsPerByte = seconds / bytes * 1e9
            if cliff.name == "prose" { proseNsPerByte = nsPerByte; rows.append(String(format: "prose %.0f ns/B", nsPerByte)); continue }
            let ratio = nsPerByte / proseNsPerByte
            rows.append(String(format: "%@ %.2fx", cliff.name, ratio))
            FileHandle.standardError.write(Data("cliffs, \(mode): \(rows.last!)\n".utf8))  // progress: a row at a time
            if ratio > worst.ratio { worst = (cliff.name, ratio) }
        }
        checks.append(Check(
            name: "cliffs, \(mode): every input class's time per byte vs prose's in 4-byte pieces, 3 / (worst ratio)",
            ratio: 3 / worst.ratio, target: 1,
            detail: "worst \(worst.name); " + rows.joined(separator: ", ")))
    }
    if sink == 42 { print("") }
    if CommandLine.arguments.count > 1 { report(checks) }
}

// `benchmark-ratios profile-layout [cjk]` runs only append + layout, for perf/callgrind.
if CommandLine.arguments.dropFirst().first == "profile-layout" {
    let deltas = CommandLine.arguments.count > 2 ? Corpus.cjkEmojiDeltas(textBytes: 1_000_000)
        : Corpus.codingAnswerDeltas(textBytes: 1_000_000 * (Int(ProcessInfo.processInfo.environment["PROFILE_MB"] ?? "1") ?? 1))
    var sink = 0
    let runs = Int(ProcessInfo.processInfo.environment["PROFILE_RUNS"] ?? "5") ?? 5
    for _ in 0..<runs { sink &+= Corpus.appendAndLayOut(deltas, width: 80) }
    print("lines x5: \(sink)")
    exit(0)
}

// `benchmark-ratios profile-markdown paragraph|list` streams one worst case, for perf/callgrind.
if CommandLine.arguments.dropFirst().first == "profile-markdown" {
    let text = CommandLine.arguments.count > 2 && CommandLine.arguments[2] == "list"
        ? Corpus.longList(bytes: 30_000) : Corpus.longParagraph(bytes: 20_000)
    let pieces = Corpus.pieces(text, size: 4)
    var sink = 0
    for _ in 0..<50 { sink &+= Corpus.streamMarkdown(pieces) }
    print("lines x50: \(sink)")
    exit(0)
}

// `benchmark-ratios profile-sse` runs only StreamRender's SSE decode, for perf/callgrind.
if CommandLine.arguments.dropFirst().first == "profile-sse" {
    let stream = Corpus.anthropicStream(size: 30_000_000)
    var sink = 0
    for _ in 0..<5 { sink &+= Corpus.decodeWithStreamRender(stream) }
    print("text bytes x5: \(sink)")
    exit(0)
}
let megabyte = 1_048_576.0

// `benchmark-ratios profile-render inline|fullscreen|plain [MB]` runs only the library
// pipeline (StreamRenderer fed one event at a time), for perf/callgrind.
if CommandLine.arguments.dropFirst().first == "profile-render" {
    let arguments = CommandLine.arguments
    let output = StreamRenderer.Configuration.Output(rawValue: arguments.count > 2 ? arguments[2] : "inline") ?? .inline
    let mb = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    let events = Corpus.events(answerTextBytes: mb * 1_000_000)
    let start = DispatchTime.now().uptimeNanoseconds
    let bytes = Corpus.renderEvents(events, output: output)
    print("\(output) \(mb) MB: \(bytes) bytes written in \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) s")
    exit(0)
}

// Issue 10: streaming markdown. The worst cases in 4-byte deltas against a one-shot
// parse and render; per-delta cost along an 800-line fence.
if !onlyPipeline && !onlyMdflow {
    var sink = 0
    for (name, text) in [("50 KB fence", Corpus.longFence(bytes: 50_000)), ("30 KB list", Corpus.longList(bytes: 30_000)),
                         ("20 KB paragraph", Corpus.longParagraph(bytes: 20_000))] {
        let pieces = Corpus.pieces(text, size: 4)
        var streamed = Double.infinity, framed = Double.infinity, whole = Double.infinity
        for _ in 0..<3 {
            whole = min(whole, minimumSeconds(runs: 5) { sink &+= Corpus.renderMarkdown(text) })
            streamed = min(streamed, minimumSeconds(runs: 3) { sink &+= Corpus.streamMarkdown(pieces) })
            framed = min(framed, minimumSeconds(runs: 3) { sink &+= Corpus.streamMarkdown(pieces, frameEvery: 17) })
        }
        checks.append(Check(
            name: "markdown, \(name) in \(pieces.count) 4-byte deltas vs one-shot parse and render: 3 / (time ratio)",
            ratio: 3 / (streamed / whole), target: 1,
            detail: String(format: "one-shot %.2f ms, streamed %.2f ms (%.2fx); with the open block rendered every 17 deltas (60 fps at a delta a ms) %.2f ms (%.2fx, recorded)",
                           whole * 1e3, streamed * 1e3, streamed / whole, framed * 1e3, framed / whole)))
    }
    let fence = Corpus.pieces(Corpus.fence(lines: 800), size: 4)
    let (first, last, firstCount, lastCount) = Corpus.firstAndLastHundredLines(fence, runs: 7)
    checks.append(Check(
        name: "markdown, 800-line fence in 4-byte deltas, open block rendered per delta: last 100 lines vs first 100, 1.5 / (time ratio)",
        ratio: 1.5 / (last / first), target: 1,
        detail: String(format: "first 100 lines %.3f ms (%d deltas), last 100 %.3f ms (%d deltas): %.2fx",
                       first * 1e3, firstCount, last * 1e3, lastCount, last / first)))
    if sink == 42 { print("") }
}

// Issue 2: ASCII-heavy segmentation + width at least 10x ICU-only throughput.
if !onlyPipeline && !onlyMarkdown && !onlyMdflow {
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
if !onlyPipeline && !onlyMarkdown && !onlyMdflow {
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

// Issue 4: append + layout per delta, linear in the stream, and resize. Times are
// the minimum of several runs (noise on a shared machine only adds time).
if !onlyPipeline && !onlyMarkdown && !onlyMdflow {
    var sink = 0
    let deltas1 = Corpus.codingAnswerDeltas(textBytes: 1_000_000)
    let bytes1 = Double(deltas1.reduce(0) { $0 + $1.utf8.count })
    var perWidth: [String] = []
    var at80 = 0.0
    for width in [40, 80, 200] {
        let t = minimumSeconds(runs: 5) { sink &+= Corpus.appendAndLayOut(deltas1, width: width) }
        if width == 80 { at80 = t }
        perWidth.append(String(format: "W%d %.2fM deltas/s (%.1f MB/s)", width, Double(deltas1.count) / t / 1e6, bytes1 / megabyte / t))
    }
    let rate = Double(deltas1.count) / at80
    checks.append(Check(
        name: "append+layout, 1 MB coding answer (\(deltas1.count) deltas) at width 80: million deltas/s",
        ratio: rate / 1e6, target: 2,
        detail: perWidth.joined(separator: ", ")))
    // Interleaved, so drift in the machine's speed hits both alike.
    var t1 = Double.infinity, t10 = Double.infinity
    for _ in 0..<4 {
        t1 = min(t1, minimumSeconds(runs: 2) { sink &+= Corpus.appendAndLayOut(deltas1, width: 80) })
        t10 = min(t10, minimumSeconds(runs: 1) { sink &+= Corpus.appendAndLayOut(deltas1, width: 80, repeats: 10) })
    }
    checks.append(Check(
        name: "append+layout, 10 MB vs 1 MB at width 80: 11 / (time ratio) (>= 1 means at most 11x)",
        ratio: 11 / (t10 / t1), target: 1,
        detail: String(format: "1 MB %.3f s, 10 MB %.3f s: %.2fx the time for %.1fx the deltas", t1, t10, t10 / t1,
                       10.0)))

    let cjk = Corpus.cjkEmojiDeltas(textBytes: 1_000_000)
    let tc = minimumSeconds(runs: 3) { sink &+= Corpus.appendAndLayOut(cjk, width: 80) }
    checks.append(Check(
        name: "append+layout, 1 MB CJK/emoji-heavy (\(cjk.count) deltas) at width 80: million deltas/s (recorded, no target)",
        ratio: Double(cjk.count) / tc / 1e6, target: nil,
        detail: String(format: "%.1f MB/s", 1.0 / tc)))

    // Resize of a 1 MB document: the tail a viewport shows, then everything.
    var view = WrappedDocument(settings: LayoutSettings(width: 80))
    for delta in deltas1 { view.append(delta) }
    view.finish()
    var widthToggle = false
    let tail = minimumSeconds(runs: 7) {
        widthToggle.toggle()
        view.resize(to: LayoutSettings(width: widthToggle ? 100 : 80))
        sink &+= view.tailLines(60).count
    }
    let full = minimumSeconds(runs: 5) {
        widthToggle.toggle()
        view.resize(to: LayoutSettings(width: widthToggle ? 100 : 80))
        sink &+= view.allLines().count
    }
    checks.append(Check(
        name: "resize of a 1 MB document: full re-wrap time / first 60-line viewport time (viewport first)",
        ratio: full / tail, target: 10,
        detail: String(format: "first viewport %.2f ms, full re-wrap %.1f ms (%.1f MB/s)", tail * 1e3, full * 1e3, bytes1 / megabyte / full)))
    if sink == 42 { print("") }
}

// Issue 5: bytes of the inline view, diff+encode per frame, frames per second.
if !onlyPipeline && !onlyMarkdown && !onlyMdflow {
    var sink = 0
    let answer = Corpus.textDeltas(of: Corpus.fixture("sse/coding-answer.anthropic.sse"))
    var printer = PlainTextPrinter(settings: LayoutSettings(width: 80))
    var plain = ""
    for delta in answer { plain += printer.append(delta) }
    plain += printer.finish()
    let plainBytes = plain.utf8.count
    let live = Corpus.inlineFrames(answer, width: 80, height: 24)
    // The fixture's text is unstyled (markdown styling is a later issue): no SGR is needed.
    checks.append(Check(
        name: "inline view, coding answer at 80x24, a frame per delta: 1.5 / (bytes / plain wrapped bytes)",
        ratio: 1.5 / (Double(live.bytes) / Double(plainBytes)), target: 1,
        detail: String(format: "%d bytes in %d frames (%.1f bytes/frame) for %d bytes of plain wrapped text: %.2fx",
                       live.bytes, live.frames, Double(live.bytes) / Double(live.frames), plainBytes,
                       Double(live.bytes) / Double(plainBytes))))

    var details: [String] = []
    for (w, h) in [(80, 24), (200, 60)] {
        for append in [true, false] {
            let (a, b, styles) = Corpus.framePair(width: w, height: h, append: append)
            let n = append ? 20_000 : 500
            var bytes = 0
            let t = minimumSeconds(runs: 3) { bytes = Corpus.diffAndEncode(a, b, styles, count: n) }
            details.append(String(format: "%dx%d %@: %.1f µs/frame, %d bytes", w, h, append ? "append" : "full change",
                                  t / Double(n) * 1e6, bytes))
            sink &+= bytes
        }
    }
    let deltas1 = Corpus.codingAnswerDeltas(textBytes: 1_000_000)
    var frames = 0
    let t = minimumSeconds(runs: 3) { frames = Corpus.inlineFrames(deltas1, width: 80, height: 24).frames }
    checks.append(Check(
        name: "pipeline with a frame after every delta (1 MB coding answer, inline 80x24): thousand frames/s (recorded)",
        ratio: Double(frames) / t / 1000, target: nil,
        detail: "diff+encode per frame: " + details.joined(separator: "; ")))
    if sink == 42 { print("") }
}

// Issue 9: the whole pipeline as users run it, every output mode, 1 MB and 10 MB
// answers: as a process (the release binary, reading a file, and reading a pipe
// written one SSE event per write(2)) and as a library call. 10x the input must cost
// at most 11x the time. Needs `swift build -c release --static-swift-stdlib --product stream-render` at the
// repository root first (or STREAM_RENDER_BINARY).
if !onlyMdflow {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let binary = ProcessInfo.processInfo.environment["STREAM_RENDER_BINARY"]
        ?? root.appendingPathComponent(".build/release/stream-render").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("FAIL no release binary at \(binary): run `swift build -c release --static-swift-stdlib --product stream-render` at the repository root")
        exit(1)
    }
    let small = Corpus.events(answerTextBytes: 1_000_000), large = Corpus.events(answerTextBytes: 10_000_000)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-render-bench-\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let smallFile = directory.appendingPathComponent("answer-1mb.sse").path
    let largeFile = directory.appendingPathComponent("answer-10mb.sse").path
    precondition(FileManager.default.createFile(atPath: smallFile, contents: Data(small.flatMap { $0 })))
    precondition(FileManager.default.createFile(atPath: largeFile, contents: Data(large.flatMap { $0 })))
    let smallMB = Double(small.reduce(0) { $0 + $1.count }) / megabyte
    let modes: [(String, [String], StreamRenderer.Configuration.Output)] = [
        ("plain", ["--output", "plain", "--width", "80"], .plain),
        ("inline", ["--output", "ansi", "--width", "80", "--height", "24"], .inline),
        ("fullscreen", ["--output", "ansi", "--fullscreen", "--width", "80", "--height", "24"], .fullscreen),
    ]
    func best(_ runs: Int, _ body: () -> Double) -> Double { (0..<runs).map { _ in body() }.min()! }
    // Issue 10: the whole 1 MB answer, piped one event per write, markdown on (the
    // default) against --markdown off, in each output mode.
    for (name, arguments, _) in modes {
        var on = Double.infinity, off = Double.infinity
        for _ in 0..<3 {
            on = min(on, best(2) { Corpus.processSeconds(binary, arguments, events: small) })
            off = min(off, best(2) { Corpus.processSeconds(binary, arguments + ["--markdown", "off"], events: small) })
        }
        checks.append(Check(
            name: "process, \(name), 1 MB answer piped one event per write: markdown on vs off, 1.5 / (time ratio)",
            ratio: 1.5 / (on / off), target: 1,
            detail: String(format: "markdown off %.3f s CPU, on %.3f s: %.2fx", off, on, on / off)))
    }
    for (name, arguments, output) in modes where !onlyMarkdown {
        for piped in [false, true] {
            var t1 = Double.infinity, t10 = Double.infinity
            for _ in 0..<3 {  // interleaved, so drift in the machine's speed hits both alike
                t1 = min(t1, best(3) { Corpus.processSeconds(binary, arguments + (piped ? [] : [smallFile]), events: piped ? small : nil) })
                t10 = min(t10, best(1) { Corpus.processSeconds(binary, arguments + (piped ? [] : [largeFile]), events: piped ? large : nil) })
            }
            checks.append(Check(
                name: "process, \(name), \(piped ? "piped one event per write" : "reading a file"): 10 MB vs 1 MB answer, 11 / (time ratio)",
                ratio: 11 / (t10 / t1), target: 1,
                detail: String(format: "1 MB answer (%.0f MB of SSE) %.3f s CPU, 10 MB %.3f s: %.2fx", smallMB, t1, t10, t10 / t1)))
        }
        var sink = 0
        var l1 = Double.infinity, l10 = Double.infinity
        for _ in 0..<3 {
            l1 = min(l1, minimumSeconds(runs: 2) { sink &+= Corpus.renderEvents(small, output: output) })
            l10 = min(l10, minimumSeconds(runs: 1) { sink &+= Corpus.renderEvents(small, output: output, repeats: 10) })
        }
        checks.append(Check(
            name: "library, \(name), StreamRenderer fed one event at a time: 10 MB vs 1 MB answer, 11 / (time ratio)",
            ratio: 11 / (l10 / l1), target: 1,
            detail: String(format: "1 MB answer %.3f s (%.0f MB/s of SSE), 10 MB %.3f s: %.2fx", l1, smallMB / l1, l10, l10 / l1)))
        if sink == 42 { print("") }
    }
    // The inline view against `cat` copying the same bytes, side by side, in wall time
    // (what a user waits for; cat's CPU time is next to nothing: it splices).
    if !onlyMarkdown {
    var cat = (wall: Double.infinity, cpu: Double.infinity), inline = cat
    for _ in 0..<5 {
        let c = Corpus.processTimes("/bin/cat", [smallFile])
        let i = Corpus.processTimes(binary, ["--output", "ansi", "--width", "80", "--height", "24", smallFile])
        cat = (min(cat.wall, c.wall), min(cat.cpu, c.cpu))
        inline = (min(inline.wall, i.wall), min(inline.cpu, i.cpu))
    }
    checks.append(Check(
        name: "process, inline view on the 1 MB answer vs cat of the same SSE file, wall time: 50 / (time ratio)",
        ratio: 50 / (inline.wall / cat.wall), target: 1,
        detail: String(format: "cat %.4f s, stream-render inline %.3f s: %.1fx cat (CPU: cat %.4f s, inline %.3f s)",
                       cat.wall, inline.wall, inline.wall / cat.wall, cat.cpu, inline.cpu)))
    }
}

// Issue 24: beside mdflow on its own benchmark shape (its demo, and LLM-style answers,
// repeated to 1 and 10 MiB, a file on standard input, output discarded, 80 columns), whole processes, median
// CPU of 5 runs; mdflow run side by side when built (`Benchmarks/compare/files` builds
// it, or MDFLOW=path), else its recorded figure. `benchmark-ratios mdflow` runs only these.
if CommandLine.arguments.count == 1 || CommandLine.arguments.dropFirst().first == "mdflow" {
    let binary = ProcessInfo.processInfo.environment["STREAM_RENDER_BINARY"]
        ?? Peers.root.appendingPathComponent(".build/release/stream-render").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("FAIL no release binary at \(binary): run `swift build -c release --static-swift-stdlib --product stream-render` at the repository root")
        exit(1)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-render-peers-\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let mdflow = Peers.mdflow
    var plainPeak: [Int: Int] = [:]
    // The issue asks for more than mdflow's own document: LLM-style answers too.
    for (document, size) in Peers.Document.allCases.flatMap({ document in [1, 10].map { (document, $0) } }) {
        let input = Peers.workload(document, mebibytes: size, in: directory)
        let peer = mdflow.map { Peers.median(5, [$0, "--typewriter-off"], input: input).cpu }
            ?? Peers.recordedMdflowSeconds[document]![size]!
        let source = mdflow == nil ? "recorded" : "measured"
        let label = document == .demo ? "mdflow's demo" : "answers"
        for (mode, arguments, bound) in [("plain", [String](), 1.0), ("styled (--color always)", ["--color", "always"], 1.0),
                                         ("live view (--output ansi --pace off)", ["--output", "ansi", "--pace", "off", "--height", "24"], 1.5)] {
            let run = Peers.median(5, [binary] + arguments, input: input)
            let peak = Peers.selfReportedPeakKB([binary] + arguments, input: input)
            if arguments.isEmpty && document == .demo { plainPeak[size] = peak }
            checks.append(Check(
                name: "process, \(label) × \(size) MiB, \(mode): \(bound) × mdflow / stream-render (CPU)",
                ratio: bound * peer / run.cpu, target: 1,
                detail: String(format: "stream-render %.3f s CPU (%.1fx mdflow), mdflow %.3f s (%@), peak RSS %.1f MB",
                               run.cpu, run.cpu / peer, peer, source, Double(peak) / 1024)))
        }
    }
    checks.append(Check(
        name: "process, plain output's peak RSS: 2 MB / (10 MiB run - 1 MiB run)",
        ratio: 2048 / Double(max(1, plainPeak[10]! - plainPeak[1]!)), target: 1,
        detail: "1 MiB \(plainPeak[1]!) KB, 10 MiB \(plainPeak[10]!) KB"))
    // The SSE path: a 1 MB answer as Anthropic SSE, plain at 80 columns against decoding
    // alone (--width 0: the text as it arrived, no layout, no markdown).
    let sse = directory.appendingPathComponent("answer-1mb.sse").path
    precondition(FileManager.default.createFile(atPath: sse, contents: Data(Corpus.answerStream(textBytes: 1_000_000))))
    let decode = Peers.median(5, [binary, "--width", "0"], input: sse).cpu
    let render = Peers.median(5, [binary, "--width", "80"], input: sse).cpu
    checks.append(Check(
        name: "process, 1 MB answer as SSE from a file: 1.5 × decoding alone (--width 0) / rendering plain at 80 columns",
        ratio: 1.5 * decode / render, target: 1,
        detail: String(format: "decoding alone %.3f s CPU, rendering %.3f s: %.2fx", decode, render, render / decode)))
    // Start-up: a one-line input, plain.
    let oneLine = directory.appendingPathComponent("one-line.txt").path
    precondition(FileManager.default.createFile(atPath: oneLine, contents: Data("hello\n".utf8)))
    let start = Peers.median(21, [binary], input: oneLine).cpu
    checks.append(Check(
        name: "process, a one-line input: 5 ms / CPU time",
        ratio: 0.005 / max(start, 1e-6), target: 1,
        detail: String(format: "%.1f ms CPU (the kernel accounts in ticks: a median of 21 runs)", start * 1000)))
}

report(checks)
