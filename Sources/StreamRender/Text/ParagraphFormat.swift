/// How a paragraph of a `StyledDocument` is framed on screen: the text drawn
/// before its first visual line and before each wrapped (continuation) line, and
/// an optional fill that repeats to the right edge.
///
/// Markdown uses it for list bullets with hanging indents (`"• "` then `"  "`), block
/// quote bars on every wrapped line (`"│ "` both), code continuation marks and
/// thematic breaks (an empty paragraph filled with `"─"`). The layout wraps the text
/// at the width left after the prefix, so wrapped lines align under the text.
///
/// Prefixes never hold control characters or line ends (they are sanitised when
/// the format is made) and are meant to be short.
@_spi(Benchmarks) public struct ParagraphFormat: Hashable, Sendable {
    /// A piece of prefix text in one style.
    public struct Piece: Hashable, Sendable {
        public var text: String
        public var style: Style

        /// `text` sanitised (controls made visible; line ends and tabs dropped).
        ///
        /// - Complexity: O(n) in the bytes of `text`.
        public init(_ text: String, style: Style = .plain) {
            // Most pieces (indents, bullets, bars, `↪ `) have nothing to sanitise: no
            // control, DEL or C1 control, no tab or line end.
            var text = text
            if text.withUTF8({ ControlSanitizer.isClean($0, tabs: false, lineFeeds: false) }) {
                self.text = text
                self.style = style
                return
            }
            var sanitizer = ControlSanitizer()
            var clean = sanitizer.sanitize(text)
            sanitizer.finish(into: &clean)
            self.text = String(clean.unicodeScalars.filter { $0 != "\n" && $0 != "\t" }.map(Character.init))
            self.style = style
        }
    }

    /// Drawn before the paragraph's first visual line.
    public var firstPrefix: [Piece]
    /// Drawn before each of its other visual lines (none when it wraps like a
    /// terminal: the terminal's own wrap starts those rows).
    public var continuationPrefix: [Piece] {
        get { wrapsLikeTerminal ? [] : storedContinuationPrefix }
        set { storedContinuationPrefix = newValue }
    }
    private var storedContinuationPrefix: [Piece]
    /// Repeated after the text to the right edge (thematic breaks).
    public var fill: Piece?
    /// Cut at the exact width between clusters, as a terminal wraps a long row (no
    /// word wrap, spaces kept, no continuation prefix), so a live view can write it
    /// as one run the terminal wraps itself: selecting it copies the source line. Only
    /// rows that fill the width are joined so (a wide cluster that moved on starts its
    /// row by a cursor move): meant for text of one column a character.
    public var wrapsLikeTerminal: Bool

    public init(firstPrefix: [Piece] = [], continuationPrefix: [Piece] = [], fill: Piece? = nil,
                wrapsLikeTerminal: Bool = false) {
        self.firstPrefix = firstPrefix
        self.storedContinuationPrefix = continuationPrefix
        self.fill = fill
        self.wrapsLikeTerminal = wrapsLikeTerminal
    }

    /// No prefix, no fill: plain text.
    public static let plain = ParagraphFormat()

    /// Whether the format draws nothing besides the text.
    public var isPlain: Bool {
        // (The stored prefix: the computed one made an array to compare.)
        !wrapsLikeTerminal && firstPrefix.isEmpty && storedContinuationPrefix.isEmpty && fill == nil
    }
}

/// The formats of a document's paragraphs, each stored once and named by a small
/// number (paragraphs carry the number).
@_spi(Benchmarks) public struct ParagraphFormatTable: Sendable {
    private var formats: [ParagraphFormat] = [.plain]
    private var ids: [ParagraphFormat: Int32] = [.plain: 0]
    private var last: Int32 = 0

    public init() {}

    /// The number of `format`, adding it if it is new.
    ///
    /// - Complexity: O(p) in the format's prefix text (one hash).
    public mutating func intern(_ format: ParagraphFormat) -> Int32 {
        if format.isPlain { return 0 }
        // A list's or a quote's lines come in a row: comparing is cheaper than hashing.
        if format == formats[Int(last)] { return last }
        if let id = ids[format] {
            last = id
            return id
        }
        let id = Int32(formats.count)
        formats.append(format)
        ids[format] = id
        last = id
        return id
    }

    /// The format numbered `id`.
    ///
    /// - Complexity: O(1).
    public subscript(id: Int32) -> ParagraphFormat { formats[Int(id)] }

    /// Formats held.
    public var count: Int { formats.count }
}
