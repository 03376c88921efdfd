import CAllocationCounter
import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The live path's cost per delta must not grow with the document. Counted, not
/// timed: the bytes the renderer's thread allocates per delta (a whole-document copy
/// per delta, as the first live view made, shows up here as growth with the
/// document's size). Growth amortized by doubling buffers stays within a constant.
@Suite(.serialized, .tags(.slow), .fullTierOnly) struct LinearityTests {
    /// Bytes allocated per delta for `deltas` deltas of the coding answer (repeated)
    /// through `output`, with a frame every 16 deltas.
    static func bytesPerDelta(_ deltas: Int, _ output: StreamRenderer.Configuration.Output) -> Double {
        let answer = Fixtures.text("answers/coding-answer.md")
        var pieces: [String] = []
        var piece = ""
        while pieces.count < deltas {
            for ch in answer {
                piece.append(ch)
                if piece.utf8.count >= 4 || ch == " " || ch == "\n" {
                    pieces.append(piece)
                    piece = ""
                    if pieces.count == deltas { break }
                }
            }
        }
        // The stream is made before counting; the renderer is fed one event at a time.
        let events = pieces.map { anthropicStream([$0], stop: false) }
        let configuration = StreamRenderer.Configuration(output: output, layout: LayoutSettings(width: 80),
            live: .init(height: 24), capabilities: .full)
        let renderer = StreamRenderer(configuration: configuration, sink: CountingSink(), clock: ManualClock())
        cac_reset()
        for (k, event) in events.enumerated() {
            event.withUnsafeBufferPointer { renderer.feed($0) }
            if k % 16 == 0 { renderer.tick(now: .seconds(k)) }
        }
        return Double(cac_bytes()) / Double(deltas)
    }

    /// Skipped where the counter cannot wrap the allocator: not glibc, or a sanitizer's
    /// allocator (`swift test --sanitize=address`); CI's plain run always has it.
    @Test(.enabled(if: cac_is_active() != 0, "the allocation counter needs glibc's allocator"),
          arguments: [StreamRenderer.Configuration.Output.inline, .fullscreen, .plain])
    func allocationPerDeltaDoesNotGrowWithTheDocument(_ output: StreamRenderer.Configuration.Output) throws {
        let small = Self.bytesPerDelta(5_000, output)
        let large = Self.bytesPerDelta(50_000, output)
        #expect(small > 0, "nothing was counted: the counter is not wired in")
        #expect(large / small < 1.5, "\(output): \(Int(small)) bytes per delta at 5k deltas, \(Int(large)) at 50k")
    }
}
