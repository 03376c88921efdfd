import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct FullscreenViewTests {
    @Test func theScreenFollowsTheTailAndTheAnswerIsLeftInTheScrollback() {
        let seed = TestSeed.base(777)
        var rng = SeededGenerator(seed: seed)
        for doc in 0..<30 {
            let text = RandomDocument.make(using: &rng, pieces: Int.random(in: 1...60, using: &rng))
            let width = [3, 7, 20, 40].randomElement(using: &rng)!
            let height = [1, 2, 5, 12].randomElement(using: &rng)!
            let policy: WidthPolicy = Bool.random(using: &rng) ? .grapheme : .wcwidth
            var view = FullscreenView(settings: LayoutSettings(width: width, policy: policy), height: height, capabilities: .full)
            var model = ModelTerminal(width: width, height: height, policy: policy)
            let splitter = CellSplitter(policy: policy)
            for piece in randomPieces(text, using: &rng) {
                view.append(piece)
                var out: [UInt8] = []
                view.frame(into: &out)
                model.apply(out)
                // The screen shows the last rows of the layout as it stands.
                var copy = view.view
                let tail = copy.tailLines(height).map { InlineViewTests.trimmed(splitter.cells(of: copy.plainText(of: $0)).map { LineDrawer.standalone($0.text, policy: splitter.policy) }.joined()) }
                let want = tail + Array(repeating: "", count: height - tail.count)
                let got = model.rows.map(InlineViewTests.trimmed)
                #expect(got == want, "seed \(seed) doc \(doc) \(width)x\(height) \(policy)")
                if got != want { return }
            }
            view.finish()
            var out: [UInt8] = []
            view.frame(into: &out)
            view.end(into: &out)
            model.apply(out)
            #expect(model.alternate == nil)
            #expect(model.unknown.isEmpty && model.violations.isEmpty, "\(model.unknown.prefix(3)) \(model.violations.prefix(3))")
            let transcript = (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
            #expect(transcript == InlineViewTests.expected(text, width: width, policy: policy, drawn: false), "seed \(seed) doc \(doc)")
        }
    }

    @Test func followingTheTailScrollsInsteadOfRepainting() {
        let text = (0..<60).map { "line \($0) of the answer\n" }.joined()
        var view = FullscreenView(settings: LayoutSettings(width: 30), height: 10, capabilities: .full)
        var model = ModelTerminal(width: 30, height: 10)
        var out: [UInt8] = []
        view.frame(into: &out)
        model.apply(out)
        var scrollingBytes = 0
        for line in text.split(separator: "\n") {
            view.append(String(line) + "\n")
            out = []
            view.frame(into: &out)
            model.apply(out)
            scrollingBytes = max(scrollingBytes, out.count)
        }
        // One new row per frame: a scroll and one row, never a whole screen.
        #expect(scrollingBytes < 30 * 3, "a frame wrote \(scrollingBytes) bytes")
        #expect(model.rows.map(InlineViewTests.trimmed).suffix(2) == ["line 58 of the answer", "line 59 of the answer"])
    }
}
