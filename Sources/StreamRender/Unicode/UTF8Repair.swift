/// A streaming UTF-8 validator that turns any byte sequence into valid UTF-8.
///
/// Invalid input becomes U+FFFD following the WHATWG Encoding Standard's UTF-8
/// decoder, which is the Unicode "maximal subpart" practice: each maximal prefix
/// of a valid sequence that is cut short yields one U+FFFD, and the byte that
/// broke it is decoded afresh. Bytes may arrive in any chunking (a scalar may be
/// split across chunks); the output is the same as for one chunk.
public struct UTF8Repair: Sendable {
    private var needed: UInt8 = 0
    private var seen: UInt8 = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    // The bytes of the incomplete sequence, held until it completes or fails.
    private var partial: (UInt8, UInt8, UInt8) = (0, 0, 0)

    /// The number of U+FFFD replacements emitted so far.
    public private(set) var replacements: Int = 0

    public init() {}

    /// Whether an incomplete sequence is being held back awaiting more bytes.
    public var hasPendingBytes: Bool { needed != 0 }

    static let replacement: (UInt8, UInt8, UInt8) = (0xEF, 0xBF, 0xBD)

    /// The valid UTF-8 of `bytes` as a string, by one validation (``UTF8Validation``)
    /// when nothing is held back and `bytes` are valid up to the
    /// bytes of a character their end cuts (those go on as ``repair(_:into:)`` takes
    /// them); nil otherwise, with nothing consumed (repair them then).
    ///
    /// - Complexity: O(n) in the number of bytes.
    mutating func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard needed == 0 else { return nil }
        let end = Self.completeEnd(bytes)
        guard let text = UTF8Validation.string(UnsafeBufferPointer(rebasing: bytes[..<end])) else { return nil }
        // The cut character is held back (or, not a valid start, replaced).
        var tail: [UInt8] = []
        repair(UnsafeBufferPointer(rebasing: bytes[end...]), into: &tail)
        return tail.isEmpty ? text : text + String(decoding: tail, as: UTF8.self)
    }

    /// Where the last character whose bytes all arrived ends: before a lead byte in
    /// the last three whose sequence runs past the end (else the end).
    static func completeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        var k = n - 1
        while k >= 0 && k >= n - 3 && bytes[k] & 0xC0 == 0x80 { k -= 1 }
        guard k >= 0, bytes[k] >= 0xC0 else { return n }
        let length = bytes[k] >= 0xF0 ? 4 : bytes[k] >= 0xE0 ? 3 : 2
        return k + length > n ? k : n
    }

    /// Appends the valid UTF-8 for `bytes` to `output`.
    ///
    /// - Complexity: O(n) in the number of bytes; pure ASCII runs are copied in bulk.
    public mutating func repair(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var i = 0
        let n = bytes.count
        output.reserveCapacity(output.count + n)
        while i < n {
            if needed == 0 {
                // Bulk-copy the ASCII run.
                var j = i
                while j < n && bytes[j] < 0x80 { j += 1 }
                if j > i {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<j]))
                    i = j
                    if i == n { break }
                }
            }
            consume(bytes[i], into: &output)
            i += 1
        }
    }

    /// Appends the valid UTF-8 for `bytes` to `output`.
    ///
    /// - Complexity: O(n) in the number of bytes.
    public mutating func repair<C: Collection>(_ bytes: C, into output: inout [UInt8]) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ repair($0, into: &output) }) {
            return done
        }
        let copy = Array(bytes)
        copy.withUnsafeBufferPointer { repair($0, into: &output) }
    }

    /// Ends the stream: an incomplete sequence at the end becomes one U+FFFD.
    ///
    /// - Complexity: O(1).
    public mutating func finish(into output: inout [UInt8]) {
        if needed != 0 {
            emitReplacement(into: &output)
            reset()
        }
    }

    @inline(__always)
    private mutating func reset() {
        needed = 0
        seen = 0
        lower = 0x80
        upper = 0xBF
    }

    @inline(__always)
    private mutating func emitReplacement(into output: inout [UInt8]) {
        output.append(Self.replacement.0)
        output.append(Self.replacement.1)
        output.append(Self.replacement.2)
        replacements += 1
    }

    private mutating func setPartial(_ index: UInt8, _ byte: UInt8) {
        switch index {
        case 0: partial.0 = byte
        case 1: partial.1 = byte
        default: partial.2 = byte
        }
    }

    private mutating func consume(_ byte: UInt8, into output: inout [UInt8]) {
        if needed == 0 {
            if byte < 0x80 { return output.append(byte) }
            // (Table 3-7, as the fast check reads it.)
            guard let (length, low, high) = UTF8Validation.sequence(lead: byte) else { return emitReplacement(into: &output) }
            needed = UInt8(length - 1)
            lower = low
            upper = high
            partial.0 = byte
            seen = 0
            return
        }
        guard byte >= lower && byte <= upper else {
            // The sequence so far is a maximal subpart: one U+FFFD, then this byte anew.
            emitReplacement(into: &output)
            reset()
            consume(byte, into: &output)
            return
        }
        lower = 0x80
        upper = 0xBF
        seen += 1
        if seen < needed {
            setPartial(seen, byte)
            return
        }
        output.append(partial.0)
        if needed >= 2 { output.append(partial.1) }
        if needed >= 3 { output.append(partial.2) }
        output.append(byte)
        reset()
    }
}
