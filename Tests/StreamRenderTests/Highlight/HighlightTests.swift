import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Each language's corpus (Resources/highlight/<name>.corpus): agreement with
/// Pygments' tokens recorded beside it by `Scripts/highlight/compare.py --record`,
/// streaming invariance, and each finished line lexed once.
@Suite(.tags(.slow), .fullTierOnly) struct HighlightCorpusTests {
    static let names = HighlightLanguage.all.map(\.name)

    static func corpus(_ name: String) -> [UInt8] { Fixtures.data("highlight/\(name).corpus") }

    /// The kind of every byte (plain where no token covers it).
    static func kinds(_ tokens: [Token], count: Int) -> [TokenKind] {
        var kinds = [TokenKind](repeating: .plain, count: count)
        for t in tokens { for i in t.start..<min(t.end, count) { kinds[i] = t.kind } }
        return kinds
    }

    /// The share of non-whitespace characters (scalars) whose kinds agree.
    static func agreement(_ text: String, _ a: [TokenKind], _ b: [TokenKind]) -> Double {
        var offset = 0, same = 0, total = 0
        for scalar in text.unicodeScalars {
            if !scalar.properties.isWhitespace {
                total += 1
                if a[offset] == b[offset] { same += 1 }
            }
            offset += UTF8.width(scalar)
        }
        return Double(same) / Double(max(1, total))
    }

    static func pygments(_ name: String) -> [Token] {
        Fixtures.text("highlight/\(name).pygments").split(separator: "\n").map { line in
            let f = line.split(separator: " ")
            return Token(start: Int(f[0])!, end: Int(f[1])!, kind: TokenKind(name: String(f[2]))!)
        }
    }

    @Test(arguments: names)
    func agreesWithPygmentsOnNinetyPercentOfCharacters(_ name: String) throws {
        let bytes = Self.corpus(name)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.utf8.elementsEqual(bytes), "\(name): the corpus must be valid UTF-8")
        let lines = bytes.filter { $0 == 0x0A }.count
        #expect(lines >= 150, "\(name): \(lines) lines")
        let language = try #require(HighlightLanguage.named(name))
        let ours = Self.kinds(Highlighter.tokens(in: text, language: language), count: bytes.count)
        let theirs = Self.kinds(Self.pygments(name), count: bytes.count)
        let share = Self.agreement(text, ours, theirs)
        #expect(share >= 0.90, "\(name): \(share * 100)% of characters agree with Pygments")
    }

    /// 1,000 seeded chunkings and byte by byte give the tokens of one pass, and each
    /// line is lexed exactly once.
    @Test(arguments: names)
    func chunkingsGiveTheTokensOfOnePass(_ name: String) throws {
        let bytes = Self.corpus(name)
        let language = try #require(HighlightLanguage.named(name))
        let want = Highlighter.tokens(in: String(decoding: bytes, as: UTF8.self), language: language)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count - (bytes.last == 0x0A ? 1 : 0)
        func run(_ chunks: [ArraySlice<UInt8>]) -> ([Token], Int) {
            var stream = TokenStream(language: language)
            var got: [Token] = []
            for chunk in chunks { got += stream.append(chunk) }
            got += stream.finish()
            return (got, stream.linesLexed)
        }
        let (single, singleLines) = run(bytes.indices.map { bytes[$0...$0] })
        #expect(single == want, "\(name) byte by byte")
        #expect(singleLines == lines, "\(name): \(singleLines) lines lexed for \(lines)")
        let base = TestSeed.base(0x4849_0001)
        for round in 0..<1000 {
            let seed = base &+ UInt64(round)
            var rng = SeededGenerator(seed: seed)
            let (got, lexed) = run(randomChunks(bytes, using: &rng, maxChunk: Int.random(in: 2...300, using: &rng)))
            if got != want || lexed != lines {
                Issue.record("\(name) seed \(seed) (STREAMRENDER_SEED=\(seed)): tokens differ or \(lexed) lines lexed for \(lines)")
                return
            }
        }
    }

    /// Resuming at any line with the state saved there gives the line's tokens of
    /// one pass: the state is all a lexer carries.
    @Test(arguments: names)
    func resumingAtALineStartGivesTheSameTokens(_ name: String) throws {
        let text = String(decoding: Self.corpus(name), as: UTF8.self)
        let language = try #require(HighlightLanguage.named(name))
        var highlighter = Highlighter(language: language)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let saved = highlighter
            let once = highlighter.finishLine(String(line))
            var again = saved
            #expect(again.finishLine(String(line)) == once && again.state == highlighter.state, "\(name): \(line)")
        }
    }
}

/// Lexers on hostile bytes: no crash, tokens ordered and inside the line.
@Suite struct HighlightRobustnessTests {
    @Test(arguments: HighlightLanguage.all.map(\.name))
    func arbitraryBytesGiveOrderedTokens(_ name: String) throws {
        let language = try #require(HighlightLanguage.named(name))
        let base = TestSeed.base(0x4849_0002)
        let alphabet = Array("\"'`\\/*#<>{}[]()$@%!?:;,.-+=|&^~_ \t\r\n0x1e9aZé中😀<!--*/\"\"\"'''${}#{}\\(<<EOF\n".utf8) + [0, 0x1B, 0xFF, 0xC3, 0x80, 0x7F]
        for round in 0..<200 {
            let seed = base &+ UInt64(round)
            var rng = SeededGenerator(seed: seed)
            let bytes = (0..<Int.random(in: 0...600, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            var stream = TokenStream(language: language)
            let tokens = stream.append(bytes) + stream.finish()
            var end = 0
            for t in tokens {
                if t.start < end || t.end <= t.start || t.end > bytes.count {
                    Issue.record("\(name) seed \(seed): bad token \(t) after \(end)")
                    return
                }
                end = t.end
            }
        }
        // One long line without a break, and a state that stays small.
        var highlighter = Highlighter(language: language)
        _ = highlighter.finishLine(String(repeating: "\"${(/*<<", count: 20_000))
        #expect(highlighter.state.stack.count <= 64 && highlighter.state.terminator.count <= 256)
    }
}

@Suite struct HighlightLanguageTests {
    @Test func fenceInfoStringsNameTheirLanguage() {
        let cases: [(String, String?)] = [
            ("swift", "swift"), ("Python", "python"), ("py", "python"), ("{.rust}", "rust"), ("language-ts", "typescript"),
            ("c++", "cpp"), ("sh title=\"x\"", "bash"), ("jsx", "javascript"), ("tsx", "typescript"),
            ("shell-session", "console"), ("yml", "yaml"), ("patch", "diff"), ("Dockerfile", "dockerfile"),
            ("c#", "csharp"), ("", nil), ("brainfuck", nil), ("text", nil),
            (" {.Language-Rust} x", "rust"), ("python,linenos", "python"), ("\tgo", "go"), ("{}", nil),
            // Not ASCII: read by characters (a Kelvin sign lowercases to `k`; a space with a
            // combining mark is no space).
            ("\u{212A}t", "kotlin"), (" \u{301}python", nil), ("pythoné", nil),
        ]
        for (info, want) in cases { #expect(HighlightLanguage.named(info)?.name == want, "\(info)") }
    }

    @Test func everyNameAndAliasIsUnique() {
        let names = HighlightLanguage.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
    }

    @Test func tokenLinesPrintAsStartEndKind() {
        let tokens = Highlighter.tokens(in: "[1, \"a\\n\"]\n{\"k\": null}", language: HighlightLanguage.named("json")!)
        #expect(tokens.map(\.description) == [
            "0 1 punctuation", "1 2 number", "2 3 punctuation", "4 6 string", "6 8 string-escape", "8 9 string",
            "9 10 punctuation", "11 12 punctuation", "12 15 tag", "15 16 punctuation", "17 21 constant", "21 22 punctuation",
        ])
        #expect(TokenKind.allCases.allSatisfy { TokenKind(name: $0.name) == $0 })
    }

    /// Keywords, strings, numbers, comments, functions and types stay apart (and
    /// apart from plain code) when the colours are downgraded to 16.
    @Test(arguments: ["dark", "light"])
    func mainKindsStayDistinctAtSixteenColours(_ name: String) throws {
        let theme = try #require(MarkdownTheme.named(name))
        let encoder = ANSIEncoder(capabilities: TerminalCapabilities(colors: .ansi16), absoluteRows: false)
        let kinds: [TokenKind] = [.keyword, .string, .number, .comment, .function, .type]
        func look(_ style: Style) -> String { "\(encoder.downgrade(style.foreground)) \(style.attributes.rawValue)" }
        let looks = kinds.map { look(theme.codeBlock.merged(with: theme.code[$0])) } + [look(theme.codeBlock)]
        #expect(Set(looks).count == looks.count, "\(theme.name): \(looks)")
    }
}
