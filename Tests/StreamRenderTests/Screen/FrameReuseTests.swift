import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// A frame reused for the next one (``Frame/reset(width:height:)``, ``Frame/copyRows(of:from:count:)``)
/// is the frame a fresh one would be, and each row's text end read from its blank bound
/// is the one a scan of the whole row finds.
@Suite struct FrameReuseTests {
    /// The column after the last cell of `row` that is not a plain blank, by a scan of the whole row.
    static func scannedEnd(_ frame: Frame, row: Int) -> Int {
        var end = 0
        for c in 0..<frame.width where !frame[row, c].isPlainBlank { end = c + 1 }
        return end
    }

    /// Random writes: narrow and wide clusters in two styles, blanks over text, rows
    /// marked unwritten, rows cleared.
    static func scribble(_ frame: inout Frame, using rng: inout SeededGenerator) {
        guard frame.height > 0 else { return }
        for _ in 0..<Int.random(in: 0...40, using: &rng) {
            let row = Int.random(in: 0..<frame.height, using: &rng)
            let column = Int.random(in: 0..<frame.width, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: frame.markRowUnwritten(row)
            case 1: frame.clear(row: row)
            case 2: if frame[row, column].isPlainBlank { frame.markUnwritten(row: row, column: column) }
            case 3: frame.put(" ", width: 1, row: row, column: column)
            case 4, 5: frame.put("中", width: 2, style: StyleID(rawValue: 1), row: row, column: column)
            default: frame.put("x", width: 1, style: StyleID(rawValue: UInt32.random(in: 0...1, using: &rng)), row: row, column: column)
            }
        }
    }

    @Test func aReusedFrameIsAFreshOne() {
        let seed = TestSeed.base(0xF4A3E)
        var rng = SeededGenerator(seed: seed)
        var frame = Frame(width: 7, height: 3)
        for round in 0..<300 {
            let width = [7, 7, 7, 12].randomElement(using: &rng)!
            let height = Int.random(in: 0...6, using: &rng)
            frame.reset(width: width, height: height)
            #expect(frame == Frame(width: width, height: height), "seed \(seed) round \(round): reset is not blank")
            Self.scribble(&frame, using: &rng)
            for r in 0..<frame.height {
                #expect(frame.textEnd(row: r) == Self.scannedEnd(frame, row: r), "seed \(seed) round \(round) row \(r)")
            }
            // Rows copied into a reset frame are the rows of `init(rowsOf:)`.
            let first = Int.random(in: 0...frame.height, using: &rng)
            let count = frame.height - first
            var copy = Frame(width: 1, height: 0)
            Self.scribble(&copy, using: &rng)
            copy.reset(width: frame.width, height: count + Int.random(in: 0...2, using: &rng))
            copy.copyRows(of: frame, from: first, count: count)
            #expect(copy == Frame(rowsOf: frame, from: first, height: copy.height), "seed \(seed) round \(round): copied rows")
            for r in 0..<copy.height {
                #expect(copy.textEnd(row: r) == Self.scannedEnd(copy, row: r), "seed \(seed) round \(round) copied row \(r)")
            }
            copy._invariantCheck()
            frame._invariantCheck()
        }
    }
}
