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
        var needsWork = pendingCR
        if !needsWork {
            for b in text.utf8 where b < 0x20 || b == 0x7F || b == 0xC2 {
                if b != 0x0A && b != 0x09 { needsWork = true; break }
            }
        }
        if !needsWork {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if pendingCR {
                pendingCR = false
                output.unicodeScalars.append("\n")
                if v == 0x0A { continue }
            }
            switch v {
            case 0x0A, 0x09:
                output.unicodeScalars.append(scalar)
            case 0x0D:
                pendingCR = true
            case 0x00..<0x20:
                output.unicodeScalars.append(Unicode.Scalar(0x2400 + v)!)
            case 0x7F:
                output.unicodeScalars.append("\u{2421}")
            case 0x80..<0xA0:
                output.unicodeScalars.append("\u{FFFD}")
            default:
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Sanitises one piece; see ``sanitize(_:into:)``.
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
}
