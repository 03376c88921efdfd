#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches for a byte in UTF-8 buffers with `memchr` (a word at a time): line ends,
/// delimiters. One copy for the SSE parser, the document and markdown.
enum ByteSearch {
    /// The index of the first `byte` in `base[from..<to]`, or `to`.
    ///
    /// - Complexity: O(n) in the bytes searched.
    @inline(__always)
    static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// Whether `byte` is in `bytes`.
    ///
    /// - Complexity: O(n) in the bytes.
    @inline(__always)
    static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return find(byte, base, from: 0, to: bytes.count) < bytes.count
    }

    /// Whether `byte` is in `bytes`.
    ///
    /// - Complexity: O(n) in the bytes.
    @inline(__always)
    static func contains(_ byte: UInt8, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { contains(byte, in: $0) }
    }
}

extension Array {
    /// `removeAll(keepingCapacity: true)`, cheap for the empty and one-element arrays
    /// a line or a paragraph mostly leaves (the general path cost about 90
    /// instructions, several times a line: issue 24). (A one-element array whose
    /// storage is shared is copied to storage of its own, as any mutation copies it,
    /// and that storage may be smaller: the callers' arrays are their own.)
    ///
    /// - Complexity: O(n) in the elements removed.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        switch count {
        case 0: return
        case 1: removeLast()
        default: removeAll(keepingCapacity: true)
        }
    }
}
