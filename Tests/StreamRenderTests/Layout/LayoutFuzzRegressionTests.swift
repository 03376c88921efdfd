import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Inputs the fuzzers found (`Fuzz/run`; Fuzz/RESULTS.md lists them), minimised and
/// fed as the exact bytes: the width property of `fuzz-markdown`.
@Suite struct LayoutFuzzRegressionTests {
    /// Width 10, wcwidth, tab size 6 (chosen by the input's first two bytes):
    /// "\t\u{FFFD}\t\t\t\t" is an indented code block whose wrapped line starts with
    /// the "↪ " prefix and ends with a tab at the edge. The layout cut that tab at the
    /// width left after the prefix (8); `plainText(of:)` and the line drawer cut it at
    /// the full width, so the line's plain text was 12 columns wide.
    @Test func aTabAtTheEdgeOfAPrefixedLineIsCutWhereTheLayoutCutIt() {
        let bytes: [UInt8] = [0x09, 0xA1, 0x09, 0x09, 0x09, 0x09]
        let settings = LayoutSettings(width: 10, tabSize: 6, policy: .wcwidth)
        var view = WrappedDocument(settings: settings, markdown: MarkdownOptions())
        view.append(String(decoding: bytes, as: UTF8.self))
        view.finish()
        let splitter = CellSplitter(policy: settings.policy)
        let lines = view.allLines()
        #expect(lines.count > 1)
        for line in lines {
            let text = view.plainText(of: line)
            let width = splitter.cells(of: text).reduce(0) { $0 + $1.width }
            #expect(view.decoration(of: line).textColumn + line.width <= settings.width)
            #expect(width <= settings.width, "\(line): \(text.debugDescription) is \(width) wide")
        }
    }
}
