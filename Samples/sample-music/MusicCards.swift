import StreamRender

/// Music recommendations as a music app's model streams them, turned into cards the
/// moment each record is complete.
///
/// The answer is records separated by `<>`:
///
/// ```
/// Artist: The Weeknd
/// Song: Earned It
/// ---
/// <>Artist: Arctic Monkeys
/// ...
/// ```
///
/// A record is complete when its `---` line has ended (its line feed arrived), at
/// the next `<>`, or at the end of the stream; it becomes a card if it has both an
/// artist and a song. A field is read only from a whole line (ended by a line feed,
/// `<>` or the end of the stream), so a card never holds half of a name, however the
/// text was cut. Lines that are neither a field nor `---` (prose around the records,
/// blank lines) are ignored; a repeated field replaces the earlier one.
///
/// Field values are sanitised (controls become visible symbols, tabs spaces): a card
/// holds no escape sequence.
struct MusicCards {
    struct Card: Hashable, Sendable {
        /// 1 for the first card of the stream, then 2, 3...
        var number: Int
        var artist: String
        var song: String
    }

    /// The bytes of the line being received.
    private var line: [UInt8] = []
    private var artist: String?
    private var song: String?
    /// Cards made so far.
    private(set) var count = 0
    /// Records that ended without both an artist and a song.
    private(set) var incompleteRecords = 0

    init() {}

    /// Takes the next piece of the answer's text (cut anywhere) and returns the
    /// cards of the records it completes, in order.
    ///
    /// - Complexity: O(n) in the bytes of `text`, plus the lines it ends.
    mutating func feed(_ text: String) -> [Card] {
        var cards: [Card] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ">") where line.last == UInt8(ascii: "<"):
                line.removeLast()
                endLine(into: &cards)
                endRecord(into: &cards)
            case UInt8(ascii: "\n"):
                endLine(into: &cards)
            default:
                line.append(byte)
            }
        }
        return cards
    }

    /// The stream ended: its last line and record are complete.
    ///
    /// - Complexity: O(l) in the bytes of the last line.
    mutating func finish() -> [Card] {
        var cards: [Card] = []
        endLine(into: &cards)
        endRecord(into: &cards)
        return cards
    }

    private mutating func endLine(into cards: inout [Card]) {
        defer { line.removeAll(keepingCapacity: true) }
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace
        if text == "---" {
            endRecord(into: &cards)
        } else if let value = Self.value(of: "artist:", in: text) {
            artist = value
        } else if let value = Self.value(of: "song:", in: text) {
            song = value
        }
    }

    private mutating func endRecord(into cards: inout [Card]) {
        defer { (artist, song) = (nil, nil) }
        guard let artist, let song else {
            if artist != nil || song != nil { incompleteRecords += 1 }
            return
        }
        count += 1
        cards.append(Card(number: count, artist: artist, song: song))
    }

    /// The sanitised value of a `Key: value` line (the key in any case), nil if the
    /// line is not one or the value is empty.
    private static func value(of key: String, in line: String) -> String? {
        guard line.prefix(key.count).lowercased() == key else { return nil }
        var sanitizer = ControlSanitizer()
        var value = sanitizer.sanitize(String(line.dropFirst(key.count)).trimmingWhitespace)
        sanitizer.finish(into: &value)
        // Tabs, and the line feed a lone CR becomes, would break the row.
        value = String(value.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
        return value.isEmpty ? nil : value
    }
}

extension MusicCards {
    /// How cards are shown: one row each, a number, the artist and the song in
    /// columns of fixed display widths (wide CJK and emoji measured as the terminal
    /// measures them, by the width policy), so every card lines up with the ones
    /// before and after it. Text too wide for its column ends with `…`.
    struct CardFormat {
        enum Role { case number, artist, separator, song }

        let policy: WidthPolicy
        /// Columns of the number (`12.` right-aligned, up to 999), the artist and the song.
        let numberWidth = 4
        let artistWidth: Int
        let songWidth: Int
        static let separator = "  ♪ "

        /// A format whose rows fit in `width` columns (for widths of at least 16).
        init(width: Int, policy: WidthPolicy = .grapheme) {
            self.policy = policy
            let rest = max(2, width - numberWidth - 1 - DisplayWidth.of(Self.separator, policy: policy))
            artistWidth = max(1, min(28, rest / 2))
            songWidth = max(1, rest - artistWidth)
        }

        /// The row of `card` as pieces to style: the number and the artist padded to
        /// their columns, the separator, the song (cut to its column, not padded).
        ///
        /// - Complexity: O(n) in the bytes of the card's text.
        func pieces(of card: Card) -> [(text: String, role: Role)] {
            let number = "\(card.number)."
            return [
                (String(repeating: " ", count: max(0, numberWidth - number.count)) + number + " ", .number),
                (fitted(card.artist, to: artistWidth, padded: true), .artist),
                (Self.separator, .separator),
                (fitted(card.song, to: songWidth, padded: false), .song),
            ]
        }

        /// The row of `card` as plain text.
        ///
        /// - Complexity: O(n) in the bytes of the card's text.
        func row(of card: Card) -> String {
            pieces(of: card).map(\.text).joined()
        }

        /// `text` in at most `width` columns: whole if it fits, else cut at a cluster
        /// and ended with `…`; with `padded`, spaces fill it to exactly `width`.
        ///
        /// - Complexity: O(n) in the bytes of `text`.
        func fitted(_ text: String, to width: Int, padded: Bool) -> String {
            let clusters = GraphemeSegmenter.clusters(of: text, policy: policy)
            var result = text
            var used = clusters.reduce(0) { $0 + $1.width }
            if used > width {
                let ellipsis = DisplayWidth.of("…", policy: policy)
                result = ""
                used = 0
                for (cluster, w) in clusters {
                    if used + w > width - ellipsis { break }
                    result += cluster
                    used += w
                }
                if used + ellipsis <= width {
                    result += "…"
                    used += ellipsis
                }
            }
            return padded ? result + String(repeating: " ", count: width - used) : result
        }
    }
}

extension String {
    /// Without white space (spaces, tabs, CR...) at either end.
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
