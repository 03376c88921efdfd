import Testing
@_spi(Benchmarks) @testable import StreamRender

/// ``InlineView/suspend(into:)`` (Ctrl-Z, messages above the view, a resize) hands
/// the terminal back on a fresh row after every row of the answer written so far.
@Suite struct InlineSuspendTests {
    /// Streams `text` a character at a time with a frame after each; after the frame
    /// for character `cut`, suspends the view and writes a line of other text there
    /// (as a shell's job line, or a message, would be). Returns the transcript.
    static func transcript(_ text: String, width: Int, height: Int, suspendingAfter cut: Int?) -> [String] {
        var view = InlineView(settings: LayoutSettings(width: width), height: height, capabilities: .full)
        var model = ModelTerminal(width: width, height: height, policy: .grapheme)
        for (k, character) in text.enumerated() {
            view.append(String(character))
            var out: [UInt8] = []
            view.frame(into: &out)
            if k == cut {
                view.suspend(into: &out)
                out += Array("OTHER\r\n".utf8)
            }
            model.apply(out)
        }
        view.finish()
        var out: [UInt8] = []
        view.frame(into: &out)
        model.apply(out)
        return (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
    }

    /// Whatever the frame before it left (a blank final row last, an empty live
    /// region), the other text takes a row of its own: without it the transcript is
    /// the answer's, with no row lost or doubled. The blank row between paragraphs was
    /// lost when the last final row was blank and the cursor still on the text above
    /// it (the intermittent Ctrl-Z check in TmuxTests).
    @Test func otherTextAfterASuspendTakesARowOfItsOwn() {
        let text = "One two three four.\n\nFive six seven.\n\n\nEight nine ten eleven twelve.\n\nEnd.\n"
        for (width, height) in [(12, 4), (20, 6), (40, 3)] {
            let whole = Self.transcript(text, width: width, height: height, suspendingAfter: nil)
            for cut in 0..<text.count {
                var got = Self.transcript(text, width: width, height: height, suspendingAfter: cut)
                guard let other = got.firstIndex(of: "OTHER") else {
                    Issue.record("\(width)x\(height) cut \(cut): the other text is not on a row of its own: \(got)")
                    continue
                }
                got.remove(at: other)
                #expect(got == whole, "\(width)x\(height) cut \(cut): \(got) vs \(whole)")
            }
        }
    }
}
