#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict JSON parser (RFC 8259) for the hot path of stream decoding: one small
/// object per event.
///
/// It parses into a flat **tape** of tokens that is reused from one document to the
/// next, so after the first few events parsing allocates nothing; strings are
/// unescaped only when asked for. It rejects everything RFC 8259 rejects: trailing
/// commas, leading zeros, bare control characters in strings, bad escapes, lone
/// surrogate escapes, trailing garbage, nesting deeper than ``maximumDepth``. One
/// deliberate leniency: bytes inside a string that are not valid UTF-8 are accepted
/// and read as U+FFFD, as a renderer shows damaged text rather than drop an event
/// (the SSE path repairs event data before parsing anyway; whole JSON bodies reach
/// the reader unrepaired). Foundation's `JSONSerialization` rejects such documents.
///
/// SPI (`@_spi(Fuzzing)`): public for the fuzz targets only, not part of the API.
@_spi(Fuzzing) public struct JSONReader: Sendable {
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset in the document where the error was found.
        public var offset: Int
        public var message: String
        public var description: String { "\(message) at offset \(offset)" }
    }

    enum Kind: UInt8 { case object, array, string, number, `true`, `false`, null }

    struct Token {
        var kind: Kind
        /// Strings: the first byte after the opening quote; others: the first byte.
        var start: Int32
        /// Strings: the closing quote; numbers and literals: one past the end;
        /// containers: the index of the token after the container's last descendant.
        var end: Int32
        /// Strings: whether there are escapes; containers: the number of members.
        var extra: Int32

        /// The index of the token after this one and its descendants, when this
        /// token is at `index`.
        @inline(__always)
        func next(at index: Int) -> Int {
            kind == .object || kind == .array ? Int(end) : index + 1
        }
    }

    /// Deeper nesting is rejected (it is never needed, and it bounds the stack).
    public static let maximumDepth = 512

    var tokens: [Token] = []
    var bytes: [UInt8] = []

    public init() {}

    /// Parses `document`; the result holds its document (later parses leave it intact).
    ///
    /// - Complexity: O(n) in the document's bytes.
    public mutating func parse(_ document: [UInt8]) throws(SyntaxError) -> JSONValue {
        // Copied into the reader's own buffer: holding the caller's array kept it shared,
        // so the SSE parser's reused event buffer was reallocated for every event.
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: document)
        tokens.removeAll(keepingCapacity: true)
        let failure = bytes.withUnsafeBufferPointer { buffer -> SyntaxError? in
            var parser = Parser(bytes: buffer)
            do throws(SyntaxError) {
                try parser.parseDocument(into: &tokens)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return JSONValue(reader: self, index: 0)
    }

    /// The parsed document borrowed for lookups by token index: what ``JSONValue``
    /// does, without a value (and its two array references) made per step (a decoder's
    /// hot path reads an event's few fields this way).
    struct Tape {
        let reader: JSONReader
        let tokens: UnsafeBufferPointer<Token>
        let bytes: UnsafeBufferPointer<UInt8>

        /// The token of the member named `key` of the object at `index` (the last one,
        /// if repeated), or nil.
        ///
        /// - Complexity: O(m) in the object's members.
        func member(_ index: Int, _ key: StaticString) -> Int? {
            let keyBytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            let object = tokens[index]
            guard object.kind == .object else { return nil }
            var found: Int? = nil
            var k = index + 1
            let end = Int(object.end)
            while k < end {
                let keyToken = tokens[k]
                if keyToken.extra == 0 {
                    if JSONValue.equal(bytes, keyToken, keyBytes) { found = k + 1 }
                } else if JSONValue(reader: reader, index: k).string == String(decoding: keyBytes, as: UTF8.self) {
                    found = k + 1
                }
                k = tokens[k + 1].next(at: k + 1)
            }
            return found
        }

        /// Whether the token at `index` is a string without escapes equal to `literal`.
        func isString(_ index: Int, _ literal: StaticString) -> Bool {
            let t = tokens[index]
            return t.kind == .string && t.extra == 0
                && JSONValue.equal(bytes, t, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        func isObject(_ index: Int) -> Bool { tokens[index].kind == .object }
    }

    /// `body` with the document borrowed as a ``Tape``.
    func withTape<R>(_ body: (Tape) -> R) -> R {
        tokens.withUnsafeBufferPointer { tokens in
            bytes.withUnsafeBufferPointer { bytes in body(Tape(reader: self, tokens: tokens, bytes: bytes)) }
        }
    }

    /// Parses a string's UTF-8.
    ///
    /// - Complexity: O(n) in the document's bytes.
    public mutating func parse(_ document: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(document.utf8))
    }

    /// Reads a borrowed buffer: the document outlives the parse, and unchecked
    /// indexing (every index is tested against `bytes.count` first) keeps the byte
    /// loops tight.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError { SyntaxError(offset: i, message: message) }

        @inline(__always) mutating func skipWhitespace() {
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
            }
        }

        mutating func parseDocument(into tokens: inout [Token]) throws(SyntaxError) {
            skipWhitespace()
            try parseValue(into: &tokens)
            skipWhitespace()
            if i != bytes.count { throw error("unexpected data after the JSON value") }
        }

        mutating func parseValue(into tokens: inout [Token]) throws(SyntaxError) {
            guard i < bytes.count else { throw error("unexpected end of JSON") }
            switch bytes[i] {
            case UInt8(ascii: "{"): try parseContainer(into: &tokens, object: true)
            case UInt8(ascii: "["): try parseContainer(into: &tokens, object: false)
            case UInt8(ascii: "\""): try parseString(into: &tokens)
            case UInt8(ascii: "t"): try literal("true", .true, into: &tokens)
            case UInt8(ascii: "f"): try literal("false", .false, into: &tokens)
            case UInt8(ascii: "n"): try literal("null", .null, into: &tokens)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber(into: &tokens)
            default: throw error("unexpected character '\(Self.show(bytes[i]))'")
            }
        }

        static func show(_ b: UInt8) -> String {
            b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
        }

        mutating func literal(_ word: StaticString, _ kind: Kind, into tokens: inout [Token]) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { throw error("invalid literal") }
            let w = UnsafeBufferPointer(start: word.utf8Start, count: count)
            for k in 0..<count where bytes[i + k] != w[k] { throw error("invalid literal") }
            tokens.append(Token(kind: kind, start: Int32(i), end: Int32(i + count), extra: 0))
            i += count
        }

        mutating func parseContainer(into tokens: inout [Token], object: Bool) throws(SyntaxError) {
            depth += 1
            if depth > JSONReader.maximumDepth { throw error("nesting deeper than \(JSONReader.maximumDepth)") }
            let index = tokens.count
            tokens.append(Token(kind: object ? .object : .array, start: Int32(i), end: 0, extra: 0))
            i += 1
            var members: Int32 = 0
            skipWhitespace()
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if i < bytes.count && bytes[i] == close {
                i += 1
            } else {
                while true {
                    skipWhitespace()
                    if object {
                        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                        try parseString(into: &tokens)
                        skipWhitespace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
                        i += 1
                        skipWhitespace()
                    }
                    try parseValue(into: &tokens)
                    members += 1
                    skipWhitespace()
                    guard i < bytes.count else { throw error("unexpected end of JSON") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == close { i += 1; break }
                    throw error(object ? "expected ',' or '}'" : "expected ',' or ']'")
                }
            }
            tokens[index].end = Int32(tokens.count)
            tokens[index].extra = members
            depth -= 1
        }

        mutating func parseString(into tokens: inout [Token]) throws(SyntaxError) {
            i += 1
            let start = i
            var escapes: Int32 = 0
            while true {
                // Skip ordinary bytes in a tight loop; the checks below see only the rest.
                while i < bytes.count {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                    i += 1
                }
                guard i < bytes.count else { throw error("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { break }
                if b < 0x20 { throw error("control character in string") }
                if b == UInt8(ascii: "\\") {
                    escapes = 1
                    i += 1
                    guard i < bytes.count else { throw error("unterminated string") }
                    switch bytes[i] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 1
                    case UInt8(ascii: "u"):
                        let unit = try hex4(at: i + 1)
                        i += 5
                        if unit >= 0xD800 && unit < 0xDC00 {
                            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                                throw error("unpaired surrogate escape")
                            }
                            let low = try hex4(at: i + 2)
                            guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate escape") }
                            i += 6
                        } else if unit >= 0xDC00 && unit < 0xE000 {
                            throw error("unpaired surrogate escape")
                        }
                    default:
                        throw error("invalid escape")
                    }
                    continue
                }
                i += 1
            }
            tokens.append(Token(kind: .string, start: Int32(start), end: Int32(i), extra: escapes))
            i += 1
        }

        func hex4(at p: Int) throws(SyntaxError) -> UInt32 {
            guard p + 4 <= bytes.count else { throw SyntaxError(offset: p, message: "invalid \\u escape") }
            var v: UInt32 = 0
            for k in 0..<4 {
                let b = bytes[p + k]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 0x30)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 0x61 + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 0x41 + 10)
                default: throw SyntaxError(offset: p + k, message: "invalid \\u escape")
                }
                v = v << 4 | d
            }
            return v
        }

        mutating func parseNumber(into tokens: inout [Token]) throws(SyntaxError) {
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number") }
            if bytes[i] == 0x30 {
                i += 1
                if i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { throw error("leading zero in number") }
            } else {
                while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            }
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number") }
                while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            }
            var mayOverflow = i - start > 300
            if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                mayOverflow = true
                i += 1
                if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 else { throw error("invalid number") }
                while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            }
            // Like Foundation, refuse numbers no Double can hold (RFC 8259 lets a
            // parser limit the range); rare, so checked only when it could happen.
            if mayOverflow, let value = Double(String(decoding: bytes[start..<i], as: UTF8.self)), !value.isFinite {
                throw SyntaxError(offset: start, message: "number out of range")
            }
            tokens.append(Token(kind: .number, start: Int32(start), end: Int32(i), extra: 0))
        }
    }
}

/// A value inside a document parsed by ``JSONReader``.
@_spi(Fuzzing) public struct JSONValue: Sendable, CustomStringConvertible {
    /// The value's JSON source text.
    public var description: String { sourceText }

    let reader: JSONReader
    let index: Int

    public enum Kind: Sendable, Equatable { case object, array, string, number, bool, null }

    var token: JSONReader.Token { reader.tokens[index] }

    public var kind: Kind {
        switch token.kind {
        case .object: .object
        case .array: .array
        case .string: .string
        case .number: .number
        case .true, .false: .bool
        case .null: .null
        }
    }

    /// The index of the token after this value and its descendants.
    var next: Int { token.next(at: index) }

    /// The member named `key` of an object (the last one, if repeated), or nil.
    ///
    /// - Complexity: O(m) in the object's members.
    public subscript(key: StaticString) -> JSONValue? {
        // Walks the tape through borrowed buffers: this runs several times per event.
        let found = reader.withTape { $0.member(index, key) }
        return found.map { JSONValue(reader: reader, index: $0) }
    }

    /// Whether the unescaped string token `t` is exactly `key`.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONReader.Token, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = Int(t.end - t.start)
        guard length == key.count else { return false }
        guard length > 0 else { return true }
        return memcmp(bytes.baseAddress! + Int(t.start), key.baseAddress!, length) == 0
    }

    private func keyMatches(_ t: JSONReader.Token, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        reader.bytes.withUnsafeBufferPointer { Self.equal($0, t, key) }
    }

    /// Whether this is a string without escapes equal to `literal`: a comparison
    /// that creates no String (the hot path compares `type` fields this way).
    ///
    /// - Complexity: O(n) in the literal's bytes.
    public func isString(_ literal: StaticString) -> Bool {
        let t = token
        guard t.kind == .string else { return false }
        if t.extra != 0 { return string == String(describing: literal) }
        return keyMatches(t, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The members of an object, in order, as (key, value).
    public var members: [(key: String, value: JSONValue)] {
        guard token.kind == .object else { return [] }
        var result: [(key: String, value: JSONValue)] = []
        var k = index + 1
        while k < Int(token.end) {
            let value = JSONValue(reader: reader, index: k + 1)
            result.append((JSONValue(reader: reader, index: k).string ?? "", value))
            k = value.next
        }
        return result
    }

    /// The elements of an array, in order.
    public var elements: [JSONValue] {
        guard token.kind == .array else { return [] }
        var result: [JSONValue] = []
        var k = index + 1
        while k < Int(token.end) {
            let value = JSONValue(reader: reader, index: k)
            result.append(value)
            k = value.next
        }
        return result
    }

    /// The string's value, unescaped; nil if this is not a string.
    ///
    /// - Complexity: O(n) in the string's bytes.
    public var string: String? {
        let t = token
        guard t.kind == .string else { return nil }
        let s = Int(t.start), e = Int(t.end)
        if t.extra == 0 {
            return reader.bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[s..<e]), as: UTF8.self) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        appendUnescaped(s, e, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the string's unescaped UTF-8 to `out`; returns false if not a string.
    ///
    /// - Complexity: O(n) in the string's bytes.
    @discardableResult
    public func appendString(to out: inout [UInt8]) -> Bool {
        let t = token
        guard t.kind == .string else { return false }
        let s = Int(t.start), e = Int(t.end)
        if t.extra == 0 {
            out.append(contentsOf: reader.bytes[s..<e])
        } else {
            appendUnescaped(s, e, into: &out)
        }
        return true
    }

    private func appendUnescaped(_ s: Int, _ e: Int, into out: inout [UInt8]) {
        let b = reader.bytes
        var i = s
        while i < e {
            let c = b[i]
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            let x = b[i + 1]
            i += 2
            switch x {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var v = Self.hex(b, i)
                i += 4
                if v >= 0xD800 && v < 0xDC00 {
                    let low = Self.hex(b, i + 2)
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                Self.appendUTF8(v, to: &out)
            default: out.append(x)  // " \ /
            }
        }
    }

    private static func hex(_ b: [UInt8], _ p: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[p + k]
            v = v << 4 | UInt32(c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10)
        }
        return v
    }

    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | (v >> 6) & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | (v >> 12) & 0x3F))
            out.append(UInt8(0x80 | (v >> 6) & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// The number's source text, if this is a number.
    public var numberText: String? {
        let t = token
        guard t.kind == .number else { return nil }
        return String(decoding: reader.bytes[Int(t.start)..<Int(t.end)], as: UTF8.self)
    }

    /// The number as an integer, if it is one that fits.
    public var int: Int? {
        let t = token
        guard t.kind == .number else { return nil }
        var v = 0
        var negative = false
        for k in Int(t.start)..<Int(t.end) {
            let c = reader.bytes[k]
            if c == UInt8(ascii: "-") { negative = true; continue }
            guard c >= 0x30 && c <= 0x39 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(c - 0x30))
            if o1 || o2 { return nil }
            v = a
        }
        return negative ? -v : v
    }

    /// The number as a double.
    public var double: Double? { numberText.flatMap(Double.init) }

    /// The boolean's value, if this is `true` or `false`.
    public var bool: Bool? {
        switch token.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    public var isNull: Bool { token.kind == .null }

    /// The value's JSON source text, exactly as it appears in the document.
    public var sourceText: String {
        let t = token
        let start = Int(t.start) - (t.kind == .string ? 1 : 0)
        let end: Int
        switch t.kind {
        case .string: end = Int(t.end) + 1
        case .object, .array:
            end = containerEnd()
        default: end = Int(t.end)
        }
        return String(decoding: reader.bytes[start..<end], as: UTF8.self)
    }

    private func containerEnd() -> Int {
        // The byte after the matching bracket: scan from the last descendant's end.
        let t = token
        var p: Int
        if Int(t.end) > index + 1 {
            let last = JSONValue(reader: reader, index: lastChildIndex())
            p = last.token.kind == .object || last.token.kind == .array ? last.containerEnd() : Int(last.token.end) + (last.token.kind == .string ? 1 : 0)
        } else {
            p = Int(t.start) + 1
        }
        let close = t.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        while p < reader.bytes.count && reader.bytes[p] != close { p += 1 }
        return p + 1
    }

    private func lastChildIndex() -> Int {
        var k = index + 1
        var last = k
        while k < Int(token.end) {
            last = k
            k = JSONValue(reader: reader, index: k).next
        }
        return last
    }
}
