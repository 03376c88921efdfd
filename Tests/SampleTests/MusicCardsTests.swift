import StreamRender
import Testing
@testable import sample_music

@Suite struct MusicCardsTests {
    typealias Card = MusicCards.Card

    static let answer = Fixtures.text("answers/music-recommendations.txt")

    /// The cards of `text` given at once.
    static func cards(_ text: String) -> [Card] {
        var parser = MusicCards()
        return parser.feed(text) + parser.finish()
    }

    static let oneShot = cards(answer)

    /// Where each record of the fixture is complete, as UTF-8 offsets: just after the
    /// line feed that ends its `---` line (found here without the parser).
    static func completions(_ text: String) -> [Int] {
        let bytes = Array(text.utf8), rule = Array("---\n".utf8)
        return bytes.indices.filter { i in
            (i == 0 || bytes[i - 1] == 0x0A) && bytes[i...].starts(with: rule)
        }.map { $0 + rule.count }
    }

    static let completionOffsets = completions(answer)

    @Test func theFixtureMakesTwentyNumberedCards() {
        #expect(Self.oneShot.count == 20 && Self.completionOffsets.count == 20)
        #expect(Self.oneShot.map(\.number) == Array(1...20))
        #expect(Self.oneShot.first == Card(number: 1, artist: "The Weeknd", song: "Earned It"))
        #expect(Self.oneShot.contains(Card(number: 4, artist: "Sigur Rós", song: "Hoppípolla")))
        #expect(Self.oneShot.contains { $0.artist == "宇多田ヒカル" && $0.song == "First Love" })
        #expect(Self.oneShot.last == Card(number: 20, artist: "Rosalía", song: "DESPECHÁ 💃"))
    }

    /// Feeds `pieces` one at a time; after each, the cards so far must be the one-shot
    /// result's first cards (never a card of a half-arrived record), exactly as many
    /// as records completed by the text so far (a card comes with the piece that
    /// completes its record, not later).
    static func check(_ pieces: [String], context: @autoclosure () -> String) -> Bool {
        var parser = MusicCards()
        var cards: [Card] = []
        var fed = 0
        for piece in pieces {
            cards += parser.feed(piece)
            fed += piece.utf8.count
            let due = completionOffsets.prefix { $0 <= fed }.count
            guard cards == Array(oneShot.prefix(due)) else {
                Issue.record("after \(fed) bytes: \(cards.count) cards, \(due) due, last \(String(describing: cards.last)); \(context())")
                return false
            }
        }
        cards += parser.finish()
        #expect(cards == oneShot, "\(context())")
        return cards == oneShot
    }

    @Test func anyChunkingOfTheTextGivesTheOneShotCardsAsEachRecordCompletes() {
        let seed = TestSeed.base(2024)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<1000 {
            let pieces = randomPieces(Self.answer, using: &rng).map(String.init)
            if !Self.check(pieces, context: "seed \(seed) round \(round)") { return }
        }
    }

    @Test func everySplitInTwoAndCharacterByCharacter() {
        // Every cut point once: inside `<>`, inside `---`, before and after each line feed.
        for cut in 0...Self.answer.count {
            let at = Self.answer.index(Self.answer.startIndex, offsetBy: cut)
            if !Self.check([String(Self.answer[..<at]), String(Self.answer[at...])], context: "cut at character \(cut)") {
                return
            }
        }
        _ = Self.check(Self.answer.map(String.init), context: "character by character")
    }

    /// The SSE streams (1,000 chunkings between them) and the text through
    /// `ResponseDecoder`, cut at random byte offsets: inside events, inside JSON
    /// escapes, inside multi-byte characters.
    @Test(arguments: zip(["sse/music.overloaded.sse", "sse/music.thinking-tool.crlf.sse", "answers/music-recommendations.txt"],
                         [500, 500, 1000]))
    func anyByteChunkingThroughTheDecoderGivesTheOneShotCards(_ fixture: String, rounds: Int) {
        let bytes = Fixtures.bytes(fixture)
        let seed = TestSeed.base(4096)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<rounds {
            var decoder = ResponseDecoder(assemblesText: false)
            var parser = MusicCards()
            var cards: [Card] = []
            var decoded = 0, due = 0
            func take(_ output: ResponseDecoder.Output) {
                guard case .event(.delta(_, .text, let text)) = output else { return }
                cards += parser.feed(text)
                decoded += text.utf8.count
            }
            for chunk in randomPieces(bytes, using: &rng) {
                let before = cards.count
                decoder.feed(chunk) { take($0) }
                while due < Self.completionOffsets.count && Self.completionOffsets[due] <= decoded { due += 1 }
                // Exactly the records completed so far; the new cards equal the one-shot ones.
                guard cards.count == due, cards[before...].elementsEqual(Self.oneShot[before..<due]) else {
                    Issue.record("\(fixture) seed \(seed) round \(round): after \(decoded) bytes of text, \(cards.count) cards, \(due) due")
                    return
                }
            }
            decoder.finish { take($0) }
            cards += parser.finish()
            #expect(decoded == Self.answer.utf8.count, "\(fixture) seed \(seed) round \(round)")
            #expect(cards == Self.oneShot, "\(fixture) seed \(seed) round \(round)")
            if cards != Self.oneShot { return }
        }
    }

    @Test func aRecordIsCompleteAtItsRuleAtTheSeparatorOrAtTheEnd() {
        var parser = MusicCards()
        // The `---` line is complete only when its line feed arrives.
        #expect(parser.feed("Artist: A\nSong: B\n---").isEmpty)
        #expect(parser.feed("\n") == [Card(number: 1, artist: "A", song: "B")])
        // `<>` completes the record (and its last line), but not its `<` alone.
        #expect(parser.feed("<>Artist: C\nSong: D<").isEmpty)
        #expect(parser.feed(">") == [Card(number: 2, artist: "C", song: "D")])
        // The end of the stream completes the last line and record.
        #expect(parser.feed("Artist: E\nSong: F").isEmpty)
        #expect(parser.finish() == [Card(number: 3, artist: "E", song: "F")])
        #expect(parser.incompleteRecords == 0)
    }

    @Test func fieldsComeOnlyFromWholeLines() {
        var parser = MusicCards()
        #expect(parser.feed("Artist: Foo").isEmpty)
        #expect(parser.feed(" Fighters\nSong: Ever").isEmpty)
        #expect(parser.feed("long\n---\n") == [Card(number: 1, artist: "Foo Fighters", song: "Everlong")])
    }

    @Test func lenientAboutWhatSurroundsTheRecords() {
        // Prose, blank lines, CRLF, key case, field order, extra spaces, no `<>` at all.
        let text = "Here are some songs:\r\n\r\nsong:Everlong \r\nARTIST:   Foo Fighters\r\n---\r\n"
            + "Artist: Björk\nSong: Jóga\n---\nEnjoy!\n"
        #expect(Self.cards(text) == [Card(number: 1, artist: "Foo Fighters", song: "Everlong"),
                                     Card(number: 2, artist: "Björk", song: "Jóga")])
        // A song title may hold `<` and `>` apart, and dashes.
        #expect(Self.cards("Artist: A\nSong: <3 -> --- x\n---\n") == [Card(number: 1, artist: "A", song: "<3 -> --- x")])
    }

    @Test func recordsWithoutBothFieldsAreLeftOut() {
        var parser = MusicCards()
        let cards = parser.feed("Artist: A\n---\n<>Song: B\n---\n<>---\n<>Artist:\nSong: C\n---\n<>Artist: D\nSong: E\n---\n")
            + parser.finish()
        #expect(cards == [Card(number: 1, artist: "D", song: "E")])
        #expect(parser.incompleteRecords == 3)
    }

    @Test func cardsHoldNoControlCharacters() {
        let cards = Self.cards("Artist: \u{1B}]0;title\u{7}Evil\u{1B}[2J\nSong: a\tb\rc\n---\n")
        #expect(cards.count == 1)
        #expect(cards[0].artist == "\u{241B}]0;title\u{2407}Evil\u{241B}[2J")
        #expect(cards[0].song == "a b c")
    }

    @Test(arguments: [WidthPolicy.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true)])
    func columnsAlignWithWideArtists(_ policy: WidthPolicy) {
        let wide = [
            Card(number: 7, artist: "宇多田ヒカル", song: "First Love"),
            Card(number: 42, artist: "BTS 방탄소년단", song: "봄날"),
            Card(number: 100, artist: "😀 Emoji Band 👨‍👩‍👧", song: "🇫🇷 Flags 👍🏽"),
            Card(number: 8, artist: "美空ひばり美空ひばり美空ひばり美空ひばり美空ひばり", song: "川の流れのように川の流れのように川の流れのように川の流れのように"),
            Card(number: 9, artist: "Sigur Ro\u{301}s", song: "Hoppi\u{301}polla"),
        ]
        let splitter = CellSplitter(policy: policy)
        func cells(_ text: String) -> Int { splitter.cells(of: text).reduce(0) { $0 + $1.width } }
        for width in [40, 80, 120] {
            let format = MusicCards.CardFormat(width: width, policy: policy)
            for card in Self.oneShot + wide {
                let pieces = format.pieces(of: card)
                let context = "\(policy) width \(width) \(card)"
                // The number and artist columns are exactly their widths, as the
                // library measures them and as a terminal of the policy cuts cells.
                #expect(DisplayWidth.of(pieces[0].text, policy: policy) == format.numberWidth + 1, "\(context)")
                #expect(DisplayWidth.of(pieces[1].text, policy: policy) == format.artistWidth, "\(context)")
                #expect(cells(pieces[1].text) == format.artistWidth, "\(context)")
                #expect(DisplayWidth.of(pieces[3].text, policy: policy) <= format.songWidth, "\(context)")
                #expect(DisplayWidth.of(format.row(of: card), policy: policy) <= width, "\(context)")
                // Cut only when too wide, with an ellipsis.
                let artistFits = DisplayWidth.of(card.artist, policy: policy) <= format.artistWidth
                #expect(pieces[1].text.hasPrefix(card.artist) == artistFits, "\(context)")
                #expect(artistFits || pieces[1].text.contains("…"), "\(context)")
            }
        }
    }
}
