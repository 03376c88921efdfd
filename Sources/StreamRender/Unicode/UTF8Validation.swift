/// A UTF-8 check that goes through ASCII eight bytes at a time, and strings made from
/// the bytes it passed without a second check.
///
/// Every `String` made from bytes is checked by the standard library, which goes eight
/// bytes at a time only while the whole buffer is ASCII and a byte at a time once one
/// character of it is not (9 instructions a byte on LLM answers, a 64 KiB read of which
/// is never all ASCII: 3% of their styled output). Text input is checked here instead.
enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8 (the Unicode Standard's table 3-7: no
    /// overlong form, no surrogate, nothing past U+10FFFF, no sequence cut short by the
    /// end), and whether they are all ASCII.
    ///
    /// - Complexity: O(n) in the bytes.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (valid: Bool, ascii: Bool) {
        guard let base = bytes.baseAddress else { return (true, true) }
        let n = bytes.count
        var i = 0
        var ascii = true
        while i < n {
            i = DisplayWidth.asciiEnd(bytes, from: i)
            guard i < n else { break }
            ascii = false
            guard let (length, low, high) = sequence(lead: base[i]), n - i >= length, case let second = base[i + 1], second >= low, second <= high else { return (false, false) }
            if length > 2 && base[i + 2] & 0xC0 != 0x80 { return (false, false) }
            if length > 3 && base[i + 3] & 0xC0 != 0x80 { return (false, false) }
            i += length
        }
        return (true, ascii)
    }

    /// The length of the sequence `lead` starts and the range of its second byte (the
    /// Unicode Standard's table 3-7; the bytes after it are any continuation byte), for
    /// the lead byte of a character of two bytes or more; nil for ASCII and for bytes
    /// no sequence starts with.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func sequence(lead: UInt8) -> (length: Int, low: UInt8, high: UInt8)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xE1...0xEF: (3, 0x80, 0xBF)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        default: nil
        }
    }

    /// The string of `bytes` if they are well-formed UTF-8 (checked once, by
    /// ``check(_:)``), nil if not.
    ///
    /// - Complexity: O(n) in the bytes.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.isEmpty else { return "" }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            let (valid, ascii) = check(bytes)
            guard valid else { return nil }
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: ascii))
        }
        // (Before UTF8Span, every way to make a string checks the bytes itself.)
        return String(validating: bytes, as: UTF8.self)
    }
}
