import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// A fence opener's language is read off the line when its info string is plain
/// (`MarkdownStream.plainFenceLanguage`), not parsed: what it reads is what md4c gives.
@Suite struct FenceLanguageTests {
    static let pieces = ["python", "c++", "{.rust}", "language-go", " ", "  ", "\t", "\\", "&amp;", "&", "`", "~", "x", "é",
                         "\u{7}", "\u{B}", "\u{C}", "title=\"a b\"", ",", "{", "}", "#", "-", "日本"]

    /// md4c's language for the block `line` opens alone, or nil when it opens none.
    static func parsed(_ line: [UInt8]) -> String? {
        var text = line + [0x0A]
        let blocks = MarkdownRenderer().shape(&text, count: text.count).blocks
        guard blocks.count == 1, case .code(true) = blocks.nodes[0].kind else { return nil }
        return blocks.tree.string(blocks.nodes[0].info)
    }

    @Test func aPlainInfoStringGivesTheLanguageMd4cGives() {
        let seed = TestSeed.base(0xFE4C_0001)
        var rng = SeededGenerator(seed: seed)
        var read = 0, declined = 0
        for k in 0..<3_000 {
            let fence = String(repeating: Bool.random(using: &rng) ? "`" : "~", count: Int.random(in: 3...5, using: &rng))
            var line = String(repeating: " ", count: Int.random(in: 0...3, using: &rng)) + fence
            for _ in 0..<Int.random(in: 0...5, using: &rng) { line += Self.pieces.randomElement(using: &rng)! }
            let bytes = Array(line.utf8)
            guard let opener = MarkdownStream.fenceOpener(bytes) else { continue }
            let md4c = Self.parsed(bytes)
            #expect(md4c != nil, "seed \(seed) line \(k): \(line.debugDescription) opens no code block")
            if let language = MarkdownStream.plainFenceLanguage(bytes, opener) {
                #expect(language == md4c, "seed \(seed) line \(k): \(line.debugDescription)")
                read += 1
            } else {
                declined += 1
            }
        }
        #expect(read > 500 && declined > 500, "\(read) read, \(declined) parsed: not what is tested")
    }
}
