/// Cuts newline-delimited JSON (Ollama's streams) into lines, in any chunking: each
/// line with content comes out as an ``SSEEvent`` whose data is the line (type `line`,
/// numbered from 1 like events, with the byte offset of its first byte), so the
/// provider decoders and the diagnostics treat a line as SSE treats an event.
///
/// - Lines end in LF, CR LF or CR (a JSON text never holds a bare CR or LF, so a
///   CR is always a line end); blank lines (spaces and tabs only) are skipped.
/// - One byte order mark at the very start is dropped; invalid UTF-8 becomes U+FFFD.
/// - A line longer than `maximumLineBytes` is dropped with a
///   ``StreamDiagnostic/Kind/eventTooLarge`` diagnostic; memory stays bounded.
/// - At the end, a last line without a line end is passed on if it is a whole JSON
///   value, else discarded and reported as a ``StreamDiagnostic/Kind/truncatedEvent``.
struct NDJSONSplitter: Sendable {
    let maximumLineBytes: Int
    /// Lines passed on so far.
    private(set) var lineCount = 0
    private(set) var bytesConsumed = 0
    private var line: [UInt8] = []
    private var lineStart = 0
    private var overflow = false

    init(maximumLineBytes: Int = 16 << 20) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Splits `bytes`, reporting each line with content and each diagnostic in order.
    ///
    /// - Complexity: O(n) in the bytes.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (SSEParser.Output) -> Void) {
        let n = bytes.count
        var i = 0
        while i < n {
            var j = i
            while j < n && bytes[j] != 0x0A && bytes[j] != 0x0D { j += 1 }
            let part = UnsafeBufferPointer(rebasing: bytes[i..<j])
            if j == n {
                append(part, output)
                break
            }
            if line.isEmpty && !overflow {
                if part.count > maximumLineBytes { reportLongLine(output) } else { dispatch(part, output) }
            } else {
                append(part, output)
                if !overflow {
                    let buffered = line
                    buffered.withUnsafeBufferPointer { dispatch($0, output) }
                }
            }
            line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
            overflow = false
            i = j + 1
            lineStart = bytesConsumed + i
        }
        bytesConsumed += n
    }

    /// Ends the input: a last line without a line end is passed on if it is a whole
    /// JSON value, else reported as truncated.
    ///
    /// - Complexity: O(n) in the last line's bytes.
    mutating func finish(_ output: (SSEParser.Output) -> Void) {
        defer {
            line.removeAll()
            overflow = false
        }
        guard !overflow, !Self.isBlank(line[...]) else { return }
        var reader = JSONReader()
        if (try? reader.parse(Self.repaired(line[...]))) != nil {
            let last = line
            last.withUnsafeBufferPointer { dispatch($0, output) }
        } else {
            output(.diagnostic(StreamDiagnostic(kind: .truncatedEvent,
                message: "the stream ended inside a line (no line end after it, and not a whole JSON value); the line was discarded",
                eventNumber: lineCount + 1, byteOffset: lineStart)))
        }
    }

    private mutating func append(_ part: UnsafeBufferPointer<UInt8>, _ output: (SSEParser.Output) -> Void) {
        if part.isEmpty || overflow { return }
        if line.count + part.count > maximumLineBytes {
            line.removeAll()
            reportLongLine(output)
            return
        }
        line.append(contentsOf: part)
    }

    private mutating func reportLongLine(_ output: (SSEParser.Output) -> Void) {
        overflow = true
        output(.diagnostic(StreamDiagnostic(kind: .eventTooLarge,
            message: "a line is longer than the \(maximumLineBytes)-byte limit; the line was dropped",
            eventNumber: lineCount + 1, byteOffset: lineStart)))
    }

    private mutating func dispatch(_ line: UnsafeBufferPointer<UInt8>, _ output: (SSEParser.Output) -> Void) {
        var content = line[...]
        if lineStart == 0 && content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if Self.isBlank(content) { return }
        lineCount += 1
        output(.event(SSEEvent(type: "line", data: Self.repaired(content), number: lineCount, byteOffset: lineStart)))
    }

    private static func isBlank<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    private static func repaired<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) { return Array(bytes) }
        var out: [UInt8] = []
        var repair = UTF8Repair()
        repair.repair(bytes, into: &out)
        repair.finish(into: &out)
        return out
    }
}
