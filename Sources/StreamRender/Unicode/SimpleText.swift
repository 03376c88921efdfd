/// Text whose every scalar is a cluster of its own whatever is around it, of a width
/// every width policy agrees on (with ambiguous characters narrow): most of what the
/// layout wraps, the screen draws and a table measures, done without segmenting.
/// (The wrapper's, the drawer's, the segmenter's and the table's fast paths share it.)
enum SimpleText {
    /// The width of `text` when every character in it is simple (``width(of:)``); nil
    /// for any other text, and for anything but ASCII when ambiguous characters are wide.
    ///
    /// - Complexity: O(n) in the bytes.
    static func width(_ text: UnsafeBufferPointer<UInt8>, ambiguousIsWide: Bool) -> Int? {
        var total = 0, i = 0
        while true {
            // Printable ASCII between the others (a table row's bars), eight bytes at a time.
            let end = DisplayWidth.printableASCIIEnd(text, from: i)
            total += end - i
            i = end
            if i >= text.count { break }
            // (A control, DEL, or any other scalar with ambiguous characters wide.)
            if ambiguousIsWide || text[i] < 0x80 { return nil }
            // Other scalars up to the next ASCII byte. Box drawing (a table's borders,
            // U+2500-U+257F: E2 94 or 95) and CJK ideographs (U+4E00-U+9FFF: E4 B8 on to
            // E9) are known from their first bytes (a valid scalar's bytes are all there).
            while i < text.count {
                let b0 = text[i]
                if b0 < 0x80 { break }
                if b0 == 0xE2 && i + 2 < text.count && text[i + 1] & 0xFE == 0x94 {
                    total += 1
                    i += 3
                } else if i + 2 < text.count && (b0 >= 0xE5 && b0 <= 0xE9 || b0 == 0xE4 && text[i + 1] >= 0xB8) {
                    total += 2
                    i += 3
                } else {
                    let (scalar, next) = DisplayWidth.decodeScalar(text, at: i)
                    guard let w = width(of: scalar) else { return nil }
                    total += w
                    i = next
                }
            }
            // (`>=`: a text cut inside a character, against the precondition, ends too.)
            if i >= text.count { break }
        }
        return total
    }

    /// The width of `scalar` if it is in one of the ranges the fast paths
    /// take, with ambiguous characters narrow: printable ASCII, Latin-1 (not the soft hyphen), Latin
    /// Extended-A and -B, the Greek and Cyrillic letters (not Cyrillic's combining
    /// marks U+0483-U+0489), Hebrew and Arabic letters, digits and punctuation, dashes,
    /// quotes and bullets (U+2010-U+2027), superscripts and subscripts, box drawing
    /// (one column); CJK punctuation, kana, ideographs, Hangul syllables,
    /// fullwidth forms and the emoji that are wide and shown as emoji by default (two).
    /// None of them joins a neighbour into a cluster (no combining or voicing mark,
    /// joiner, selector, skin tone or regional indicator is among them: an emoji joins
    /// only those, which send the text the other way); tests check every one against
    /// the segmenter and ``DisplayWidth`` under each mode.
    @inline(__always)
    static func width(of scalar: UInt32) -> Int? {
        switch scalar {
        case 0x20...0x7E: return 1
        case 0xA1...0xFF where scalar != 0xAD: return 1
        case 0x100...0x24F, 0x386, 0x388...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3CE, 0x400...0x481, 0x48A...0x52F: return 1
        case 0x2010...0x2027, 0x2070...0x2071, 0x2074...0x208E, 0x2090...0x209C, 0x2500...0x257F: return 1
        case 0x3001...0x3029, 0x3041...0x3096, 0x30A1...0x30FE, 0x4E00...0x9FFF,
             0xAC00...0xD7A3, 0xFF01...0xFF60: return 2
        // (After the others, and out of line: CJK text is looked up most, and this
        // function is inlined in every fast path.)
        case 0x590...0x6FF: return hebrewOrArabicWidth(scalar)
        default: return scalar >= 0x231A && isEmoji(scalar) ? 2 : nil  // (the first emoji: ⌚)
        }
    }

    /// ``width(of:)`` in U+0590...U+06FF: Hebrew and Arabic letters, digits and
    /// punctuation are one column, not their points and marks, the number signs that go
    /// before (Prepend) or the letter mark (a control).
    @inline(never)
    private static func hebrewOrArabicWidth(_ scalar: UInt32) -> Int? {
        switch scalar {
        case 0x5BE, 0x5C0, 0x5C3, 0x5C6, 0x5D0...0x5EA, 0x5EF...0x5F4, 0x606...0x60F, 0x61B, 0x61D...0x64A,
             0x660...0x66F, 0x671...0x6D5, 0x6DE, 0x6E5...0x6E6, 0x6E9, 0x6EE...0x6FF: return 1
        default: return nil
        }
    }

    /// Whether `scalar` is one of the emoji of ``isEmojiInData(_:)``, when the
    /// linked ICU has that data's Unicode version (else none is: ICU's widths decide).
    static func isEmoji(_ scalar: UInt32) -> Bool {
        isEmojiInData(scalar) && emojiDataMatchesICU
    }

    private static let emojiDataMatchesICU = ICUInfo.implementsUnicode(emojiUnicodeVersion)
}
