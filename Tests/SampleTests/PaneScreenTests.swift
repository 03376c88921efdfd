import StreamRender
import Testing
@testable import sample_panes

/// sample-panes' composition, without a terminal (PaneViewTests check the panes'
/// drawing against the model terminal).
@Suite struct PaneScreenTests {
    static func text(_ frame: Frame, row: Int, columns: Range<Int>) -> String {
        columns.filter { !frame[row, $0].isContinuation }.map { frame[row, $0].text }.joined()
    }

    static func trimmed(_ s: String) -> String {
        String(s.reversed().drop { $0 == " " }.reversed())
    }

    @Test func thePanesSplitTheWidthAroundARule() {
        #expect(PaneScreen.rectangles(count: 2, width: 81, height: 24).map { [$0.left, $0.width, $0.height] }
                == [[0, 40, 23], [41, 40, 23]])
        #expect(PaneScreen.rectangles(count: 2, width: 80, height: 24).map { [$0.left, $0.width, $0.height] }
                == [[0, 39, 23], [40, 40, 23]])
    }

    @Test func twoStreamsRunSideBySideToTheirEnds() {
        let left = Array("# Left\n\nSome text in 日本語 and 👍🏽.\n".utf8)
        let right = Fixtures.bytes("sse/coding-answer.anthropic.sse")
        var screen = PaneScreen(streams: [("left.md", left), ("right.sse", right)], width: 61, height: 12,
                                theme: .monochrome, bytesPerFrame: 50)
        var frames = 0
        while !screen.isDone && frames < 10_000 {
            screen.advance()
            screen.compose()
            screen.frame._invariantCheck()
            frames += 1
            // The rule between the panes stays whatever they draw.
            #expect((0..<11).allSatisfy { screen.frame[$0, 30].text == "│" })
        }
        #expect(screen.isDone && !screen.hasFailure)
        #expect(screen.streams.map(\.fed) == [left.count, right.count])
        // The left stream ended in its first frame, the right one after all of its bytes.
        #expect(screen.streams.map(\.frames) == [1, (right.count + 49) / 50])
        let leftRows = (0..<11).map { Self.trimmed(Self.text(screen.frame, row: $0, columns: 0..<30)) }
        #expect(Array(leftRows.prefix(3)) == ["Left", "", "Some text in 日本語 and 👍🏽."])
        let status = Self.text(screen.frame, row: 11, columns: 0..<61)
        #expect(status.hasPrefix(" left.md \(left.count) B · 1 frame · done │ right.sse \(right.count) B"), "\(status)")
        #expect(status.count == 61)  // the bar spans the row, cut to fit
    }

    @Test func aStreamThatReportsAnErrorFails() {
        var screen = PaneScreen(streams: [("music", Fixtures.bytes("sse/music.overloaded.sse")), ("text", Array("hi".utf8))],
                                width: 80, height: 10, bytesPerFrame: 4096)
        while !screen.isDone {
            screen.advance()
            screen.compose()
        }
        #expect(screen.streams.map(\.state) == [.failed("overloaded_error"), .done])
        #expect(screen.hasFailure)
        #expect(Self.text(screen.frame, row: 9, columns: 0..<80).contains("failed: overloaded_error"))
    }

    @Test func resizeRedrawsThePanesAtTheirNewWidths() {
        var screen = PaneScreen(streams: [("a", Array("alpha beta gamma delta\n".utf8)), ("b", Array("one two\n".utf8))],
                                width: 41, height: 5, bytesPerFrame: 100)
        screen.advance()
        screen.compose()
        #expect(Self.trimmed(Self.text(screen.frame, row: 0, columns: 0..<20)) == "alpha beta gamma")
        screen.resize(width: 21, height: 6)
        screen.compose()
        #expect(screen.frame.width == 21 && screen.frame.height == 6)
        #expect(screen.panes.map(\.left) == [0, 11] && screen.panes.map(\.width) == [10, 10])
        #expect((0..<3).map { Self.trimmed(Self.text(screen.frame, row: $0, columns: 0..<10)) } == ["alpha beta", "gamma", "delta"])
        #expect(screen.frame[0, 10].text == "│" && screen.frame[4, 10].text == "│")
    }
}
