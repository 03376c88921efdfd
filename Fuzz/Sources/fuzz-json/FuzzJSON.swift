import Foundation
import FuzzSupport
@_spi(Fuzzing) import StreamRender

// JSONReader against Foundation's JSONSerialization (with `.fragmentsAllowed`: the
// reader takes any value at the top level, as RFC 8259 does): both accept or both
// reject, and where both accept the values are the same (object keys sorted, numbers
// to 12 significant digits, as JSONReaderTests compares them).
//
// Known differences, each checked, not just skipped (JSONReaderTests records the
// first two as well):
//
// - Foundation accepts trailing commas (`[1,]`, `{"a":1,}`); the reader is strict
//   (RFC 8259). Recognised by removing the trailing commas (outside strings): the
//   reader must then accept the document.
// - Foundation detects UTF-16 and UTF-32 (a NUL among the first bytes) and skips a
//   byte order mark; the reader reads UTF-8 only, with no BOM (RFC 8259 section 8.1
//   allows both choices). Recognised by a BOM or a NUL byte in the input; the reader
//   must reject it (a NUL is never valid in UTF-8 JSON).
// - The reader does not validate UTF-8 inside strings (invalid bytes become U+FFFD
//   when a string is read); Foundation rejects such documents. Recognised by the
//   input not being valid UTF-8. A deliberate leniency, documented on JSONReader
//   (a renderer shows damaged text rather than drop an event).
//
// - Foundation reads a value only when asked, and never one a later duplicate key
//   replaced: a number out of Double's range there is accepted (`{"":5e600,"":7}`;
//   anywhere else both reject it). Recognised by making such numbers `0` (outside
//   strings): the reader must then accept the document and read Foundation's value.
//
// Agreements the fuzzer relies on (checked by JSONReaderTests): top-level scalars
// accepted by both, duplicate keys accepted by both (the last one wins), lone
// surrogate escapes rejected by both, nesting to depth 512 accepted and deeper
// rejected by both, numbers out of Double's range rejected by both.

/// `bytes` rewritten outside strings: at each byte outside a string, `rewrite` may
/// append what stands for the bytes from there and return the index after them; nil
/// keeps the byte.
func rewritingOutsideStrings(_ bytes: UnsafeBufferPointer<UInt8>,
                             _ rewrite: (_ at: Int, _ out: inout [UInt8]) -> Int?) -> [UInt8] {
    var out: [UInt8] = []
    var inString = false, escaped = false
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if inString {
            if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
        } else if b == UInt8(ascii: "\"") {
            inString = true
        } else if let next = rewrite(i, &out) {
            i = next
            continue
        }
        out.append(b)
        i += 1
    }
    return out
}

/// The document with every number no Double can hold (outside strings) made `0`.
func zeroingOutOfRangeNumbers(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    rewritingOutsideStrings(bytes) { i, out in
        let b = bytes[i]
        guard b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39) else { return nil }
        var j = i + 1
        while j < bytes.count, case let c = bytes[j], (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
                || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { j += 1 }
        let literal = UnsafeBufferPointer(rebasing: bytes[i..<j])
        if let value = Double(String(decoding: literal, as: UTF8.self)), !value.isFinite {
            out.append(UInt8(ascii: "0"))
        } else {
            out.append(contentsOf: literal)
        }
        return j
    }
}

/// The document with every comma that is followed (after whitespace) by `]` or `}`
/// removed, outside strings.
func removingTrailingCommas(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    rewritingOutsideStrings(bytes) { i, _ in
        guard bytes[i] == UInt8(ascii: ",") else { return nil }
        var j = i + 1
        while j < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 }
        return j < bytes.count && (bytes[j] == UInt8(ascii: "]") || bytes[j] == UInt8(ascii: "}")) ? i + 1 : nil
    }
}

/// A value both readers' results are brought to (object keys sorted, numbers as
/// Double, strings as UTF-8: String's == is canonical equivalence).
indirect enum Canonical: Equatable {
    case number(Double), string([UInt8]), array([Canonical]), object([([UInt8], Canonical)]), null

    /// Numbers are equal within a relative 1e-12: Foundation reads some numbers a
    /// bit off (`80523450123450.000001` as 80523450123450.016, one unit in the last
    /// place above the correctly rounded value JSONReader gives; huge integers go
    /// through Decimal), and comparing renderings to 12 digits flipped on such ties.
    static func == (a: Canonical, b: Canonical) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)):
            return x == y || abs(x - y) <= 1e-12 * max(abs(x), abs(y)) || (x.isNaN && y.isNaN)
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { $0 == $1 }
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, .null): return true
        default: return false
        }
    }

    var description: String {
        switch self {
        case .number(let d): return "n" + String(format: "%.17g", d + 0.0)
        case .string(let s): return String(decoding: s, as: UTF8.self).debugDescription
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.map { String(decoding: $0.0, as: UTF8.self).debugDescription + ":" + $0.1.description }.joined(separator: ",") + "}"
        case .null: return "null"
        }
    }
}

/// Members by key (the last of a repeated key wins, as in Foundation's dictionary).
func sortedMembers(_ pairs: [(String, Canonical)]) -> [([UInt8], Canonical)] {
    var dict: [String: Canonical] = [:]
    for (k, v) in pairs { dict[k] = v }
    return dict.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { (Array($0.utf8), dict[$0]!) }
}

func canonical(_ v: JSONValue) -> Canonical {
    switch v.kind {
    case .object: return .object(sortedMembers(v.members.map { ($0.0, canonical($0.1)) }))
    case .array: return .array(v.elements.map(canonical))
    case .string: return .string(Array(v.string!.utf8))
    case .number: return .number(v.double!)
    case .bool: return .number(v.bool! ? 1.0 : 0.0)
    case .null: return .null
    }
}

func canonical(_ any: Any) -> Canonical {
    switch any {
    case let d as [String: Any]: return .object(sortedMembers(d.map { ($0.key, canonical($0.value)) }))
    case let a as [Any]: return .array(a.map { canonical($0) })
    case let s as String: return .string(Array(s.utf8))
    case let n as NSNumber: return .number(n.doubleValue)
    case is NSNull: return .null
    default: return .string(Array("?\(any)".utf8))
    }
}

func show(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription + " \(Array(bytes.prefix(64)))"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: d, count: n)
    var reader = JSONReader()
    let ours = try? reader.parse(Array(bytes))
    let theirs = try? JSONSerialization.jsonObject(with: Data(buffer: bytes), options: [.fragmentsAllowed])
    switch (ours, theirs) {
    case (nil, nil):
        return 0
    case (let ours?, let theirs?):
        let a = canonical(ours), b = canonical(theirs)
        if a != b {
            fuzzFailure("values differ on \(show(bytes)):\n  JSONReader \(a.description.prefix(300))\n  Foundation \(b.description.prefix(300))")
        }
        return 0
    case (nil, let theirs?):
        if bytes.contains(0) || bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.starts(with: [0xFF, 0xFE]) {
            return 0  // Foundation's encoding detection
        }
        let stripped = removingTrailingCommas(bytes)
        if stripped.count < n {
            var strict = JSONReader()
            if (try? strict.parse(stripped)) != nil { return 0 }  // Foundation's trailing-comma leniency
        }
        let zeroed = zeroingOutOfRangeNumbers(bytes)
        if zeroed != Array(bytes) {
            // Foundation's laziness: an out-of-range number a duplicate key replaced (and
            // trailing commas besides, which it also takes).
            var lenient = JSONReader()
            let candidate = zeroed.withUnsafeBufferPointer { removingTrailingCommas($0) }
            if let value = try? lenient.parse(candidate), canonical(value) == canonical(theirs) { return 0 }
        }
        fuzzFailure("Foundation accepts and JSONReader rejects \(show(bytes))")
    case (_?, nil):
        if String(validating: bytes, as: UTF8.self) == nil { return 0 }  // strings are not validated as UTF-8
        fuzzFailure("JSONReader accepts and Foundation rejects \(show(bytes))")
    }
}
