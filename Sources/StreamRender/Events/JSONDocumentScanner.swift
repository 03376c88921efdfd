/// Follows a JSON document as its bytes arrive, without parsing it: where it ends,
/// or that it cannot be JSON. Used to hold input that starts with `{` (an API error
/// body, a non-streamed response) until it is whole, and to give it up as text at
/// the first byte no JSON document could contain.
struct JSONDocumentScanner {
    enum State: Equatable {
        case open
        /// The document ends before this offset (counted over every byte scanned).
        case complete(end: Int)
        case notJSON
    }

    private(set) var state = State.open
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var scanned = 0

    /// Scans the next bytes of the input.
    ///
    /// - Complexity: O(n) in the bytes.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes {
            guard state == .open else { return }
            scanned += 1
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { state = .complete(end: scanned) }
                if depth < 0 { state = .notJSON }
            case UInt8(ascii: "\""):
                inString = true
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                 UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            default:
                // Outside strings only the letters of true, false, null and exponents occur.
                if !Self.literalLetters.contains(b) { state = .notJSON }
            }
            if depth == 0 && state == .open && b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { state = .notJSON }
        }
    }

    private static let literalLetters: Set<UInt8> = Set("truefalsnE".utf8)
}
