@_spi(Benchmarks) @testable import StreamRender

/// Random documents for layout tests: ASCII prose and code, CJK, emoji sequences,
/// combining marks, tabs, long unbreakable tokens, runs of spaces, CRLF and lone CR.
enum RandomDocument {
    static let pieces: [String] = [
        "the ", "quick ", "brown ", "fox ", "jumps", " over", ", ", ". ", "(see [1]) ", "$(12.50) ", "don't ", "x-y ",
        "日本語の", "文章です。", "中文字符", "한국어 ", "「引用」", "ｆｕｌｌ ", "café ", "— ", "x² ", "“quoted” ",
        "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷🇩🇪", "❤️", "1️⃣", "☺︎",
        "e\u{301}", "a\u{300}\u{301}\u{302}", "\u{301}", "ก\u{E31}", "\u{200D}", "\u{00AD}",
        "\t", "\ta", "    ", " ", "  ", "\n", "\r\n", "\r", "\u{2028}",
        "https://example.com/a/very/long/path?with=query&and=more", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "\u{1B}[2J", "\u{1B}]0;title\u{7}", "\u{85}", "\u{7F}",
    ]

    static func make(using rng: inout SeededGenerator, pieces count: Int) -> String {
        var text = ""
        for _ in 0..<count { text += pieces.randomElement(using: &rng)! }
        return text
    }
}

/// Cuts `text` into random pieces at scalar boundaries (so mid-grapheme, mid-CRLF,
/// mid-escape; a String cannot be cut mid-scalar).
func randomPieces(_ text: String, using rng: inout SeededGenerator, maxScalars: Int = 12) -> [String] {
    let scalars = Array(text.unicodeScalars)
    var pieces: [String] = []
    var i = 0
    while i < scalars.count {
        let size = Int.random(in: 0...3, using: &rng) == 0 ? 1 : Int.random(in: 1...maxScalars, using: &rng)
        let end = min(scalars.count, i + size)
        var piece = String.UnicodeScalarView()
        piece.append(contentsOf: scalars[i..<end])
        pieces.append(String(piece))
        i = end
    }
    return pieces
}

/// Lays `pieces` out as a stream, checking invariants after every mutation (with
/// `checkEvery`, after every that many and after the last); returns the final lines
/// and the lines reported as committed along the way.
func layOut(_ pieces: [String], settings: LayoutSettings, limits: HistoryLimits = .unlimited,
            check: Bool = true, checkEvery: Int = 1) -> (lines: [VisualLine], committed: [VisualLine], view: WrappedDocument) {
    var view = WrappedDocument(settings: settings, limits: limits)
    var committed: [VisualLine] = []
    for (k, piece) in pieces.enumerated() {
        view.append(piece) { committed.append($0) }
        if check && (k % checkEvery == 0 || k == pieces.count - 1) { view._invariantCheck() }
    }
    view.finish { committed.append($0) }
    if check { view._invariantCheck() }
    return (view.allLines(), committed, view)
}

/// The shown text of each line (tabs expanded).
func texts(_ lines: [VisualLine], _ view: WrappedDocument) -> [String] {
    lines.map { view.plainText(of: $0) }
}

extension ParagraphWrapper {
    /// Lays `text` out as it grows: the paragraph so far up to each of `cuts` (scalar
    /// starts), then complete; `afterCut` runs after each partial advance.
    mutating func layOutGrowing(_ text: [UInt8], cuts: [Int], breakers: LayoutBreakers,
                                afterCut: (_ wrapper: ParagraphWrapper, _ cut: Int) -> Void = { _, _ in }) -> [VisualLine] {
        var lines: [VisualLine] = []
        for cut in cuts where cut < text.count {
            text.withUnsafeBufferPointer { advance(UnsafeBufferPointer(rebasing: $0[..<cut]), closed: false,
                                                   breakers: breakers) { lines.append($0) } }
            afterCut(self, cut)
        }
        text.withUnsafeBufferPointer { advance($0, closed: true, breakers: breakers) { lines.append($0) } }
        return lines
    }
}

extension LineBreaker {
    /// A line breaker that asks ICU for every text: the oracle of the fast paths.
    static func icuOnly() -> LineBreaker {
        let icu = LineBreaker()
        icu.usesASCIIFastPath = false
        return icu
    }
}
