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

    /// What a format draws, in one box that copies share: a rendered line carries its
    /// format by value, and copying one reference costs less than copying two arrays and
    /// two strings (issue 24). `nil` is the plain format. Never changed once made.
    fileprivate final class Storage: Sendable {
        let firstPrefix: [Piece]
        let continuationPrefix: [Piece]
        let fill: Piece?
        let wrapsLikeTerminal: Bool

        init(firstPrefix: [Piece], continuationPrefix: [Piece], fill: Piece?, wrapsLikeTerminal: Bool) {
            self.firstPrefix = firstPrefix
            self.continuationPrefix = continuationPrefix
            self.fill = fill
            self.wrapsLikeTerminal = wrapsLikeTerminal
        }

        /// A box for these parts, or `nil` when they draw nothing (plain).
        static func make(_ firstPrefix: [Piece], _ continuationPrefix: [Piece], _ fill: Piece?,
                         _ wrapsLikeTerminal: Bool) -> Storage? {
            if !wrapsLikeTerminal && firstPrefix.isEmpty && continuationPrefix.isEmpty && fill == nil { return nil }
            return Storage(firstPrefix: firstPrefix, continuationPrefix: continuationPrefix, fill: fill,
                           wrapsLikeTerminal: wrapsLikeTerminal)
        }
    }
    fileprivate var storage: Storage?

    /// Drawn before the paragraph's first visual line.
    public var firstPrefix: [Piece] {
        get { storage?.firstPrefix ?? [] }
        set { storage = .make(newValue, storedContinuationPrefix, fill, wrapsLikeTerminal) }
    }
    /// Drawn before each of its other visual lines (none when it wraps like a
    /// terminal: the terminal's own wrap starts those rows).
    public var continuationPrefix: [Piece] {
        get { wrapsLikeTerminal ? [] : storedContinuationPrefix }
        set { storage = .make(firstPrefix, newValue, fill, wrapsLikeTerminal) }
    }
    private var storedContinuationPrefix: [Piece] { storage?.continuationPrefix ?? [] }
    /// Repeated after the text to the right edge (thematic breaks).
    public var fill: Piece? {
        get { storage?.fill }
        set { storage = .make(firstPrefix, storedContinuationPrefix, newValue, wrapsLikeTerminal) }
    }
    /// Cut at the exact width between clusters, as a terminal wraps a long row (no
    /// word wrap, spaces kept, no continuation prefix), so a live view can write it
    /// as one run the terminal wraps itself: selecting it copies the source line. Only
    /// rows that fill the width are joined so (a wide cluster that moved on starts its
    /// row by a cursor move): meant for text of one column a character.
    public var wrapsLikeTerminal: Bool {
        get { storage?.wrapsLikeTerminal ?? false }
        set { storage = .make(firstPrefix, storedContinuationPrefix, fill, newValue) }
    }

    public init(firstPrefix: [Piece] = [], continuationPrefix: [Piece] = [], fill: Piece? = nil,
                wrapsLikeTerminal: Bool = false) {
        storage = .make(firstPrefix, continuationPrefix, fill, wrapsLikeTerminal)
    }

    /// This format inside another's: `outer` before its first prefix, `other` before its
    /// continuation prefix (as shown: none while it wraps like a terminal), its fill
    /// kept; `wrapsLikeTerminal` replaces its own when given. One box made (setting the
    /// parts one by one made one each).
    ///
    /// - Complexity: O(p) in the pieces.
    public func nested(in outer: [Piece], other: Piece, wrapsLikeTerminal wraps: Bool? = nil) -> ParagraphFormat {
        ParagraphFormat(firstPrefix: outer + firstPrefix, continuationPrefix: [other] + continuationPrefix, fill: fill,
                        wrapsLikeTerminal: wraps ?? wrapsLikeTerminal)
    }

    /// No prefix, no fill: plain text.
    public static let plain = ParagraphFormat()

    /// Whether the format draws nothing besides the text.
    ///
    /// - Complexity: O(1).
    public var isPlain: Bool { storage == nil }

    /// Whether `other` is this format's copy (the same box, or both plain): a check
    /// that costs no reference counting, before an assignment that would.
    ///
    /// - Complexity: O(1).
    func isCopy(of other: ParagraphFormat) -> Bool { storage === other.storage }

    /// - Complexity: O(1) for copies of one format (one box); otherwise O(p) in the prefix text.
    public static func == (lhs: ParagraphFormat, rhs: ParagraphFormat) -> Bool {
        // (Copies first, without taking the boxes out: that retained and released them.)
        if lhs.storage === rhs.storage { return true }
        guard let l = lhs.storage, let r = rhs.storage else { return false }
        return l.wrapsLikeTerminal == r.wrapsLikeTerminal && l.fill == r.fill
            && l.firstPrefix == r.firstPrefix && l.continuationPrefix == r.continuationPrefix
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(firstPrefix)
        hasher.combine(storedContinuationPrefix)
        hasher.combine(fill)
        hasher.combine(wrapsLikeTerminal)
    }
}

extension ParagraphFormat: CustomReflectable {
    /// The parts, not the box that holds them (`dump`, test failure messages).
    public var customMirror: Mirror {
        Mirror(self, children: ["firstPrefix": firstPrefix, "continuationPrefix": storedContinuationPrefix,
                                "fill": fill as Any, "wrapsLikeTerminal": wrapsLikeTerminal])
    }
}

/// The formats of a document's paragraphs, each stored once and named by a small
/// number (paragraphs carry the number).
@_spi(Benchmarks) public struct ParagraphFormatTable: Sendable {
    private var formats: [ParagraphFormat] = [.plain]
    /// The formats' numbers by ``key(_:)``.
    private var byKey = IDSlots()
    /// Testing switch: keys are cut to these bits, so tests can make formats collide.
    var keyMask: UInt64 = .max
    /// The last two formats interned (0: none).
    private var last: Int32 = 0, previous: Int32 = 0
    /// Where their boxes are: a format in the same box is one of them, known without
    /// `==`, whose copy of the table's format retained and released its box (two atomic
    /// operations per paragraph). The table holds those boxes, so no other box can
    /// have their address.
    private var lastBox: ObjectIdentifier?, previousBox: ObjectIdentifier?
    /// Formats interned lately, by where their box is in memory, each with its number: a
    /// format the renderer keeps (a quote's, a list item's) is found by its box, without
    /// a hash of its text. An entry holds its box, so no other box takes its address.
    /// (Made with the first format that is not plain: a table that meets none costs
    /// a process nothing.)
    private var seen: [(format: ParagraphFormat, id: Int32)?] = []

    public init() {}

    /// The number of `format`, adding it if it is new.
    ///
    /// - Complexity: O(p) in the format's prefix text (one hash).
    public mutating func intern(_ format: ParagraphFormat) -> Int32 {
        // (The box's identity without taking the box out: that retained and released it.)
        guard let identity = format.storage.map(ObjectIdentifier.init) else { return 0 }
        if identity == lastBox { return last }
        if identity == previousBox {
            let id = previous
            remember(id)
            return id
        }
        // A list's or a quote's lines come in a row, two formats often taking turns (an
        // item's first line and its other lines): comparing with the last two is
        // cheaper than any hash (four cost more than they found).
        if last != 0 && format == formats[Int(last)] { return last }
        if previous != 0 && format == formats[Int(previous)] {
            let id = previous
            remember(id)
            return id
        }
        if seen.isEmpty { seen = .init(repeating: nil, count: 64) }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: identity) >> 4) & (seen.count - 1)
        if let entry = seen[slot], entry.format.storage.map(ObjectIdentifier.init) == identity {
            remember(entry.id)
            return entry.id
        }
        let id = lookUp(format)
        seen[slot] = (format, id)
        remember(id)
        return id
    }

    /// The number of `format` (not plain), adding it if it is new.
    private mutating func lookUp(_ format: ParagraphFormat) -> Int32 {
        // Looked up by a hash of the bytes drawn: `ParagraphFormat`'s own hash (of each
        // piece's `String` and `Style`) cost 1,700 instructions (an ordered list's items
        // each have a format of their own). Formats of one key are told apart by `==`.
        // The plain format's place, filed once, first: `intern` answers plain before any
        // lookup, so no lookup matches it and the first one adds a format.
        if formats.count == 1 { byKey.file(hash: 0) }
        let key = Self.key(format) & keyMask
        if let id = byKey.first(key, where: { formats[Int($0)] == format }) { return id }
        formats.append(format)
        byKey.file(hash: key)
        return Int32(formats.count - 1)
    }

    /// FNV-1a of what `format` draws: its pieces' bytes and styles, in order.
    private static func key(_ format: ParagraphFormat) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        func mix(pieces: [ParagraphFormat.Piece]) {
            for piece in pieces {
                for byte in piece.text.utf8 { mix(byte) }
                var look = piece.style.look
                for _ in 0..<8 { mix(UInt8(truncatingIfNeeded: look)); look >>= 8 }
                if let link = piece.style.hyperlink { for byte in link.utf8 { mix(byte) } }
                mix(0xFF)  // (never in UTF-8: pieces stay apart)
            }
            mix(0xFE)
        }
        mix(pieces: format.firstPrefix)
        mix(pieces: format.continuationPrefix)
        if let fill = format.fill { mix(pieces: [fill]) }
        mix(format.wrapsLikeTerminal ? 1 : 0)
        return hash
    }

    private mutating func remember(_ id: Int32) {
        guard id != last else { return }
        (previous, last) = (last, id)
        (previousBox, lastBox) = (lastBox, formats[Int(id)].storage.map(ObjectIdentifier.init))
    }

    /// The format numbered `id`.
    ///
    /// - Complexity: O(1).
    public subscript(id: Int32) -> ParagraphFormat { formats[Int(id)] }

    /// Formats held.
    public var count: Int { formats.count }
}
