/// Makes content safe to show: no byte of model text can reach the terminal as a
/// control sequence.
///
/// - LF and TAB are kept (layout handles them); CR LF and a lone CR become LF, also
///   when the CR ends one piece and the LF starts the next.
/// - Every other C0 control and DEL becomes its Unicode Control Picture (ESC is
///   U+241B "␛", NUL U+2400 "␀", DEL U+2421 "␡").
/// - C1 controls (U+0080...U+009F), which have no pictures, become U+FFFD.
///
/// This closes terminal injection (titles, OSC 52 clipboard writes, screen clears,
/// CR overwrites) by construction: only the ANSI encoder writes escape sequences.
public struct ControlSanitizer: Sendable {
    private var pendingCR = false

    public init() {}

    /// Appends the sanitised `text` to `output`.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    public mutating func sanitize(_ text: String, into output: inout String) {
        if !needsWork(text) {
            output += text
            return
        }
        sanitizeScalars(text) { output.unicodeScalars.append($0) }
    }

    /// Appends the sanitised `text` to `output` as UTF-8.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    public mutating func sanitize(_ text: String, into output: inout [UInt8]) {
        if !needsWork(text) {
            output.append(contentsOf: text.utf8)
            return
        }
        sanitizeScalars(text) { output.append(contentsOf: UTF8.encode($0)!) }
    }

    /// Whether `text` has anything to replace (most text has not).
    private func needsWork(_ text: String) -> Bool {
        if pendingCR { return true }
        var text = text
        return !text.withUTF8 { Self.isClean($0) }
    }

    /// Whether `bytes` (valid UTF-8) have nothing to replace: no C0 control but LF and
    /// TAB (neither with `tabs` false, TAB alone with `lineFeeds` false), no DEL, no C1 control (0xC2 0x80...0xC2 0x9F;
    /// `°` and `²` share its lead byte). The one rule of what needs sanitising: the
    /// markdown renderer's fast paths ask it too.
    ///
    /// - Complexity: O(n) in the bytes, eight at a time.
    static func isClean(_ bytes: UnsafeBufferPointer<UInt8>, tabs: Bool = true, lineFeeds: Bool = true) -> Bool {
        @inline(__always) func dirty(_ k: Int) -> Bool {
            let b = bytes[k]
            if b < 0x20 { return (b != 0x0A || !lineFeeds) && (b != 0x09 || !tabs) }
            if b == 0xC2 { return k + 1 < bytes.count && bytes[k + 1] < 0xA0 }
            return b == 0x7F
        }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while i + 8 <= bytes.count {
                let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                // Bytes below 0x20, equal to 0x7F (w ^ 0x7F.. has a zero byte), equal to 0xC2:
                // such a word is looked at byte by byte.
                let below = (w &- ones &* 0x20) & ~w & highs
                let del = ((w ^ (ones &* 0x7F)) &- ones) & ~(w ^ (ones &* 0x7F)) & highs
                let c2 = ((w ^ (ones &* 0xC2)) &- ones) & ~(w ^ (ones &* 0xC2)) & highs
                if below | del | c2 != 0 {
                    for k in i..<(i + 8) where dirty(k) { return false }
                }
                i += 8
            }
        }
        while i < bytes.count {
            if dirty(i) { return false }
            i += 1
        }
        return true
    }

    private mutating func sanitizeScalars(_ text: String, _ append: (Unicode.Scalar) -> Void) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if pendingCR {
                pendingCR = false
                append("\n")
                if v == 0x0A { continue }
            }
            switch v {
            case 0x0A, 0x09:
                append(scalar)
            case 0x0D:
                pendingCR = true
            case 0x00..<0x20:
                append(Unicode.Scalar(0x2400 + v)!)
            case 0x7F:
                append("\u{2421}")
            case 0x80..<0xA0:
                append("\u{FFFD}")
            default:
                append(scalar)
            }
        }
    }

    /// Sanitises one piece; see ``sanitize(_:into:)-(_,String)``.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    public mutating func sanitize(_ text: String) -> String {
        var out = ""
        sanitize(text, into: &out)
        return out
    }

    /// Ends the text: a CR held back (it might have been the start of CR LF) becomes LF.
    ///
    /// - Complexity: O(1).
    public mutating func finish(into output: inout String) {
        if pendingCR {
            pendingCR = false
            output += "\n"
        }
    }

    /// Ends the text, appending UTF-8; see ``finish(into:)-(String)``.
    ///
    /// - Complexity: O(1).
    public mutating func finish(into output: inout [UInt8]) {
        if pendingCR {
            pendingCR = false
            output.append(0x0A)
        }
    }

    /// Whether a CR is held back, waiting to see whether an LF follows.
    public var isHoldingCR: Bool { pendingCR }
}
