import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Inputs the fuzzers found (`Fuzz/run`; Fuzz/RESULTS.md lists them), minimised and
/// fed as the exact bytes: the chunking differential of `fuzz-sse`.
@Suite struct EventsFuzzRegressionTests {
    struct Run: Equatable {
        var outputs: [ResponseDecoder.Output] = []
        var format: ResponseDecoder.Format?
        var eventCount = 0
    }

    /// Decodes `bytes` cut at `cuts`, text deltas of one block joined (text comes out
    /// per piece fed, so only the text is compared, not how it was cut).
    static func decode(_ bytes: [UInt8], cuts: [Int] = []) -> Run {
        var decoder = ResponseDecoder(format: .auto)
        var run = Run()
        let sink: (ResponseDecoder.Output) -> Void = { output in
            if case .event(.delta(let index, let kind, let text)) = output,
               case .event(.delta(index, kind, let before))? = run.outputs.last {
                run.outputs[run.outputs.count - 1] = .event(.delta(index: index, kind: kind, text: before + text))
            } else {
                run.outputs.append(output)
            }
        }
        var start = 0
        for cut in cuts + [bytes.count] {
            decoder.feed(bytes[start..<cut], sink)
            start = cut
        }
        decoder.finish(sink)
        run.format = decoder.format
        run.eventCount = decoder.sseEventCount
        return run
    }

    /// "data\n\ndata\n\n" was text that looked like SSE (its first event is neither
    /// provider's) and counted as many events as the chunking let the parser see (2
    /// whole, 1 cut at 2, 6 and 8). Since plain `data:` SSE is a format, two complete
    /// events whose every line is an SSE field make it `sse-text`, two events, in
    /// every chunking; text that only looks like SSE counts none (the second case).
    @Test func textThatLookedLikeSSECountsNoEventsInAnyChunking() {
        let bytes: [UInt8] = [0x64, 0x61, 0x74, 0x61, 0x0A, 0x0A, 0x64, 0x61, 0x74, 0x61, 0x0A, 0x0A]
        let whole = Self.decode(bytes)
        #expect(whole.format == .sseText && whole.eventCount == 2)
        #expect(Self.decode(bytes, cuts: [2, 6, 8]) == whole)
        let prose = Array("data\n\nthen prose, not an event\n".utf8)
        let text = Self.decode(prose)
        #expect(text.format == .text && text.eventCount == 0)
        #expect(Self.decode(prose, cuts: [2, 6, 8]) == text)
    }

    /// The binary verdict was taken on the bytes held when detection decided, so it
    /// depended on the chunking: whole, `FF 00` held a NUL and was binary (nothing
    /// shown); fed a byte at a time, `FF` alone could not be SSE, so it was text at
    /// once and the NUL followed as text. The other way round, a long first chunk
    /// diluted control bytes under the 10% threshold that a short one exceeded. Now
    /// text is judged at an offset of the input (a NUL in the first 512 bytes, or the
    /// 512th byte, or the end of a shorter input), the text before it shown.
    @Test func binaryDetectionDoesNotDependOnTheChunking() {
        let bytes: [UInt8] = [0xFF, 0x00]
        let whole = Self.decode(bytes)
        #expect(Self.decode(bytes, cuts: [1]) == whole)
        #expect(whole.outputs.first == .event(.delta(index: 0, kind: .text, text: "\u{FFFD}")))
        guard case .diagnostic(let d)? = whole.outputs.last else { Issue.record("no diagnostic"); return }
        #expect(d.kind == .unrecognisedInput && d.message.hasPrefix("the input looks binary") && d.byteOffset == 1)
        // Controls dense at the start, diluted later: judged on the first 512 bytes in
        // every chunking (seeded cuts; the seed is printed on failure).
        var diluted = Array("{\"a\": ".utf8) + Array(repeating: 0x01, count: 60) + Array(repeating: UInt8(ascii: "x"), count: 700)
        diluted += Array("\n".utf8)
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SeededGenerator(seed: seed)
        let reference = Self.decode(diluted)
        #expect(reference.outputs.contains { if case .diagnostic = $0 { true } else { false } }, "seed \(seed)")
        for _ in 0..<50 {
            let cuts = (0..<Int.random(in: 1...8, using: &rng)).map { _ in Int.random(in: 0...diluted.count, using: &rng) }.sorted()
            #expect(Self.decode(diluted, cuts: cuts) == reference, "seed \(seed), cuts \(cuts)")
        }
    }
}
