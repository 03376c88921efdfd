import StreamRender
import Testing
import TestSupport
@testable import sample_panes

/// sample-panes' composition, without a terminal: three models drawn by pane
/// presenters into one frame, with status rows from their typed side events
/// (AnswerModelTests check the presenter against the model terminal).
@Suite struct PaneScreenTests {
    static func text(_ frame: Frame, row: Int, columns: Range<Int>) -> String {
        columns.filter { !frame[row, $0].isContinuation }.map { frame[row, $0].text }.joined()
    }

    static func trimmed(_ s: String) -> String {
        String(s.reversed().drop { $0 == " " }.reversed())
    }

    /// The oracle: stream-render's plain output of `bytes` at `width`, its last `height` lines.
    static func plainTail(_ bytes: [UInt8], width: Int, height: Int) -> [String] {
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: width)), sink: sink)
        renderer.feed(bytes)
        renderer.finish()
        let lines = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map { trimmed(String($0)) }
        return lines.suffix(height) + Array(repeating: "", count: max(0, height - lines.count))
    }

    @Test func threeBuiltInStreamsRunPacedToTheirEndsWithTheirSideEventsShown() {
        let streams = BuiltInStreams.all
        let screen = PaneScreen(streams: streams, width: 80, height: 24, theme: .monochrome, bytesPerFrame: 60)
        var seen: [Set<String>] = Array(repeating: [], count: 3)
        var frames = 0, heldBack = 0
        while !screen.isDone && frames < 5_000 {
            screen.advance(now: .milliseconds(33) * frames)
            if screen.streams.contains(where: { !$0.model.isRevealComplete }) { heldBack += 1 }
            screen.compose()
            screen.frame._invariantCheck()
            for k in 0..<3 { seen[k].insert(Self.trimmed(Self.text(screen.frame, row: 22, columns: (k * 27)..<(k * 27 + 26)))) }
            // The rules between the panes stay whatever they draw.
            #expect((0..<23).allSatisfy { screen.frame[$0, 26].text == "│" && screen.frame[$0, 53].text == "│" })
            frames += 1
        }
        #expect(screen.isDone && !screen.hasFailure)
        // Paced: frames showed less than had arrived.
        #expect(heldBack > 10, "\(heldBack) of \(frames) frames")
        // Each stream's thinking, then its tool call (name and arguments, cut to the pane), shown as they came.
        #expect(seen.allSatisfy { $0.contains("thinking…") })
        #expect(seen[2].contains(#"⚙ get_weather {"city": "Li"#), "\(seen[2])")
        #expect(seen[0].contains { $0.hasPrefix("⚙ search_docs") })
        for k in 0..<3 {
            let rows = (0..<22).map { Self.trimmed(Self.text(screen.frame, row: $0, columns: (k * 27)..<(k * 27 + 26))) }
            #expect(rows == Self.plainTail(streams[k].bytes, width: 26, height: 22), "pane \(k)")
            #expect(Self.text(screen.frame, row: 22, columns: (k * 27)..<(k * 27 + 26)).hasPrefix("done · "))
        }
        let bar = Self.text(screen.frame, row: 23, columns: 0..<80)
        #expect(bar.hasPrefix(" built-in code \(streams[0].bytes.count) B ✓ │ built-in languages"), "\(bar)")
    }

    @Test func aStreamThatReportsAnErrorFails() {
        let screen = PaneScreen(streams: [("music", Fixtures.bytes("sse/music.overloaded.sse")), ("text", Array("hi".utf8))],
                                width: 80, height: 10, bytesPerFrame: 4096)
        var frames = 0
        while !screen.isDone && frames < 1_000 {
            screen.advance(now: .milliseconds(33) * frames)
            screen.compose()
            frames += 1
        }
        #expect(screen.hasFailure)
        #expect(screen.streams.map { $0.model.outcome?.isComplete } == [false, true])
        #expect(Self.text(screen.frame, row: 8, columns: 0..<39).hasPrefix("the stream reported overloaded_error"))
    }

    @Test func resizeRedrawsThePanesAtTheirNewWidths() {
        let screen = PaneScreen(streams: [("a", Array("alpha beta gamma delta\n".utf8)), ("b", Array("one two\n".utf8))],
                                width: 41, height: 5, bytesPerFrame: 100)
        for k in 0..<200 { screen.advance(now: .milliseconds(33) * k) }
        screen.compose()
        #expect(Self.trimmed(Self.text(screen.frame, row: 0, columns: 0..<20)) == "alpha beta gamma")
        screen.resize(width: 21, height: 7)
        screen.compose()
        #expect(screen.frame.width == 21 && screen.frame.height == 7)
        #expect((0..<3).map { Self.trimmed(Self.text(screen.frame, row: $0, columns: 0..<10)) } == ["alpha beta", "gamma", "delta"])
        #expect(screen.frame[0, 10].text == "│" && screen.frame[5, 10].text == "│")
        #expect(Self.trimmed(Self.text(screen.frame, row: 0, columns: 11..<21)) == "one two")
    }
}
