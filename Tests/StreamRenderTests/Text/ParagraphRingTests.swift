import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// The document's ring of paragraphs holds what an array appended at the end and
/// trimmed at both ends holds, through its growth and wrapping, and reuses a removed
/// paragraph's buffers only within its limits.
@Suite struct ParagraphRingTests {
    @Test func theRingHoldsWhatAnArrayHolds() {
        let seed = TestSeed.base(0x7249_0001)
        var rng = SeededGenerator(seed: seed)
        var ring = ParagraphRing(spareLimit: 8, spareRoom: 64)
        var model: [(text: [UInt8], format: Int32)] = []
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let format = Int32.random(in: 0..<4, using: &rng)
                ring.appendEmpty(format: format)
                model.append(([], format))
            case 4..<6 where !model.isEmpty:
                let bytes = ring.removeFirst()
                #expect(bytes == model.removeFirst().text.count, "seed \(seed) step \(step)")
            case 6 where !model.isEmpty:
                let bytes = ring.removeLast()
                #expect(bytes == model.removeLast().text.count, "seed \(seed) step \(step)")
            default:
                guard !model.isEmpty else { continue }
                // Text into a paragraph: sometimes more than a spare may keep.
                let k = Int.random(in: 0..<model.count, using: &rng)
                let more = [UInt8](repeating: UInt8.random(in: 0x61...0x7A, using: &rng), count: Int.random(in: 0...100, using: &rng))
                ring[k].text.append(contentsOf: more)
                ring[k].runs = ring[k].text.isEmpty ? [] : [.init(end: ring[k].text.count, style: .plain)]
                model[k].text += more
            }
            #expect(ring.count == model.count, "seed \(seed) step \(step)")
            if step % 97 == 0 || ring.count != model.count {
                for k in model.indices {
                    #expect(ring[k].text == model[k].text && ring[k].format == model[k].format, "seed \(seed) step \(step) paragraph \(k)")
                    #expect(ring[k].runs.last?.end ?? 0 == model[k].text.count, "seed \(seed) step \(step) paragraph \(k): stale runs")
                    #expect(!ring[k].isClosed && !ring[k].endsWithLineFeed, "seed \(seed) step \(step)")
                }
            }
        }
    }

    @Test func aRemovedParagraphsBuffersGoToTheNextWithinTheLimits() {
        var ring = ParagraphRing(spareLimit: 2, spareRoom: 64)
        for _ in 0..<4 { ring.appendEmpty(format: 0) }
        ring[0].text = Array(repeating: 0x61, count: 40)  // kept
        ring[1].text = Array(repeating: 0x62, count: 200)  // over the room: let go
        ring[2].text = Array(repeating: 0x63, count: 10)  // kept
        ring[3].text = Array(repeating: 0x64, count: 10)  // over the limit of two spares: let go
        for _ in 0..<4 { ring.removeFirst() }
        // (Slots are taken in turn: the twelve never used come first.)
        for _ in 0..<12 { ring.appendEmpty(format: 0) }
        for _ in 0..<12 { ring.removeFirst() }
        var reused = 0
        for k in 0..<4 {
            ring.appendEmpty(format: 0)
            #expect(ring[k].text.isEmpty)
            if ring[k].text.capacity > 0 { reused += 1 }
        }
        #expect(reused == 2, "\(reused) buffers reused: two were within the limits")
    }
}
