#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental parser of `text/event-stream`, following the WHATWG HTML
/// "event stream interpretation" rules exactly:
///
/// - the stream is UTF-8; one leading BOM is stripped; invalid bytes become U+FFFD;
/// - lines end in CR LF, LF or CR (a CR ending one chunk and an LF starting the next
///   are one line end);
/// - a line starting with `:` is a comment; `field: value` loses one space after the
///   colon; a line with no colon is a field with an empty value;
/// - `data` lines are joined with LF; `event` sets the type; `id` sets the last event
///   ID unless it contains NUL; `retry` sets the reconnection time if it is ASCII
///   digits only; other fields are ignored (or reported: ``reportsUnknownFields``);
/// - a blank line dispatches; an event whose data buffer is empty is not dispatched;
/// - at the end of the stream an unterminated event is discarded, as the spec says,
///   and reported as a ``StreamDiagnostic/Kind/truncatedEvent``.
///
/// Bytes may arrive in any chunking; the events are the same. A line or an event's
/// data longer than ``maximumEventBytes`` is dropped with a diagnostic and memory
/// stays bounded.
///
/// SPI (`@_spi(Fuzzing)`): public for the fuzz targets only, not part of the API.
@_spi(Fuzzing) public struct SSEParser: Sendable {
    public enum Output: Sendable, Equatable {
        case event(SSEEvent)
        case diagnostic(StreamDiagnostic)
    }

    /// The largest event (data buffer or single line) kept, in bytes.
    public let maximumEventBytes: Int

    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    public private(set) var reconnectionTime: Int?
    /// The number of events dispatched so far.
    public private(set) var eventCount = 0
    /// The number of bytes consumed so far.
    public private(set) var bytesConsumed = 0

    private var line: [UInt8] = []
    private var lineOverflow = false
    private var lineStartOffset = 0
    private var lastWasCR = false
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var bomChecked = false
    /// The prefix of a BOM seen so far at the very start of the stream.
    private var heldBOMBytes: [UInt8] = []

    private var data: [UInt8] = []
    private var dataHasContent = false  // a data field was seen (data may be "")
    private var eventType: String? = nil
    private var lastTypeBytes: [UInt8] = []
    private var lastTypeString: String? = nil
    private var idBuffer: String? = nil
    private var lastEventID: String? = nil
    private var eventStartOffset: Int? = nil
    private var eventOverflow = false
    private var sawAnyField = false

    /// Whether a line that is not a comment and not one of the four fields (`data`,
    /// `event`, `id`, `retry`) is reported as a ``StreamDiagnostic/Kind/malformedEvent``.
    /// The spec ignores such lines; where the data is the text itself (plain-text SSE)
    /// they are most likely text, and their loss is reported. Off by default.
    public var reportsUnknownFields = false

    /// - Complexity: O(1).
    public init(maximumEventBytes: Int = 16 << 20, reportsUnknownFields: Bool = false) {
        self.maximumEventBytes = maximumEventBytes
        self.reportsUnknownFields = reportsUnknownFields
    }

    /// Parses `bytes`, reporting each dispatched event and each diagnostic in order.
    ///
    /// - Complexity: O(n) in the bytes.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        var i = 0
        let n = bytes.count
        // A BOM is stripped only at the very start, possibly split across chunks.
        while !bomChecked && i < n {
            if bytes[i] == Self.byteOrderMark[heldBOMBytes.count] {
                heldBOMBytes.append(bytes[i])
                i += 1
                bytesConsumed += 1
                if heldBOMBytes.count == Self.byteOrderMark.count {
                    bomChecked = true
                    heldBOMBytes.removeAll()
                    lineStartOffset = bytesConsumed
                }
            } else {
                releaseHeldBOMBytes(output)
            }
        }
        if i < n {
            consume(UnsafeBufferPointer(rebasing: bytes[i..<n]), output)
        }
    }

    /// Parses `bytes` (any collection of bytes).
    ///
    /// - Complexity: O(n) in the bytes.
    public mutating func feed<C: Collection>(_ bytes: C, _ output: (Output) -> Void) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed($0, output) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { feed($0, output) }
    }

    /// Ends the stream. An unterminated event is discarded and reported.
    ///
    /// - Complexity: O(1).
    public mutating func finish(_ output: (Output) -> Void) {
        if !bomChecked { releaseHeldBOMBytes(output) }
        let pendingLine = !line.isEmpty || lineOverflow
        if pendingLine || sawAnyField {
            let offset = eventStartOffset ?? lineStartOffset
            output(.diagnostic(StreamDiagnostic(
                kind: .truncatedEvent,
                message: "the stream ended inside an event (no blank line after it); the event was discarded",
                eventNumber: eventCount + 1, byteOffset: offset)))
        }
        line.removeAll()
        lineOverflow = false
        resetEvent()
    }

    /// The start was not a BOM after all: the bytes held as its prefix are content.
    /// They were counted when held, so the count steps back before they are parsed.
    private mutating func releaseHeldBOMBytes(_ output: (Output) -> Void) {
        bomChecked = true
        let held = heldBOMBytes
        heldBOMBytes.removeAll()
        bytesConsumed -= held.count
        held.withUnsafeBufferPointer { consume($0, output) }
    }

    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        let n = bytes.count
        var i = 0
        if lastWasCR && n > 0 {
            lastWasCR = false
            if bytes[0] == 0x0A {
                i = 1
                lineStartOffset = bytesConsumed + 1
            }
        }
        guard let base = bytes.baseAddress else { return }
        // Line ends are found with memchr: the next LF per line, and the next CR once
        // per CR (streams that use LF alone pay for one scan of the chunk).
        var nextCR = ByteSearch.find(0x0D, base, from: i, to: n)
        while i < n {
            if nextCR < i { nextCR = ByteSearch.find(0x0D, base, from: i, to: n) }
            let j = min(nextCR, ByteSearch.find(0x0A, base, from: i, to: min(nextCR, n)))
            let part = UnsafeBufferPointer(start: base + i, count: j - i)
            if j == n {
                appendToLine(part, output)
                i = n
                break
            }
            if line.isEmpty && !lineOverflow {
                // The whole line is in this chunk: parse it where it lies.
                if part.count > maximumEventBytes { reportLongLine(output) }
                processLine(part, output)
                if lineOverflow { endLine() }
            } else {
                appendToLine(part, output)
                processBufferedLine(output)
            }
            let terminator = bytes[j]
            var next = j + 1
            if terminator == 0x0D {
                if next < n {
                    if bytes[next] == 0x0A { next += 1 }
                } else {
                    lastWasCR = true
                }
            }
            lineStartOffset = bytesConsumed + next
            i = next
        }
        bytesConsumed += n
    }

    private mutating func appendToLine(_ part: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        if part.isEmpty || lineOverflow { return }
        if line.count + part.count > maximumEventBytes {
            line.removeAll()
            reportLongLine(output)
            return
        }
        line.append(contentsOf: part)
    }

    private mutating func reportLongLine(_ output: (Output) -> Void) {
        lineOverflow = true
        output(.diagnostic(StreamDiagnostic(
            kind: .eventTooLarge,
            message: "a line is longer than the \(maximumEventBytes)-byte limit; the event was dropped",
            eventNumber: eventCount + 1, byteOffset: lineStartOffset)))
        eventOverflow = true
    }

    private mutating func endLine() {
        line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
        lineOverflow = false
    }

    /// Processes the line collected across chunks in `line`.
    private mutating func processBufferedLine(_ output: (Output) -> Void) {
        var buffered: [UInt8] = []
        swap(&buffered, &line)
        buffered.withUnsafeBufferPointer { processLine($0, output) }
        swap(&buffered, &line)
        endLine()
    }

    /// Processes one complete line (without its terminator).
    private mutating func processLine(_ line: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        if lineOverflow {
            sawAnyField = true
            return
        }
        if line.isEmpty {
            dispatch(output)
            return
        }
        if eventStartOffset == nil { eventStartOffset = lineStartOffset }
        if line[0] == UInt8(ascii: ":") {
            return  // comment
        }
        sawAnyField = true
        let nameEnd = line.firstIndex(of: UInt8(ascii: ":")) ?? line.count
        var valueStart = min(nameEnd + 1, line.count)
        if valueStart < line.count && line[valueStart] == 0x20 { valueStart += 1 }
        field(UnsafeBufferPointer(rebasing: line[0..<nameEnd]), UnsafeBufferPointer(rebasing: line[valueStart..<line.count]), output)
    }

    private static func equals(_ buf: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        equals(buf, UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    private static func string(_ value: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: value, as: UTF8.self)  // repairs invalid UTF-8 to U+FFFD
    }

    private mutating func field(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        if Self.equals(name, "data") {
            if eventOverflow { return }
            if data.count + value.count + 1 > maximumEventBytes {
                eventOverflow = true
                data.removeAll()
                output(.diagnostic(StreamDiagnostic(
                    kind: .eventTooLarge,
                    message: "an event's data exceeds the \(maximumEventBytes)-byte limit; the event was dropped",
                    eventNumber: eventCount + 1, byteOffset: eventStartOffset ?? lineStartOffset)))
                return
            }
            if dataHasContent { data.append(0x0A) }
            appendRepaired(value)
            dataHasContent = true
        } else if Self.equals(name, "event") {
            // Streams repeat a few types; reuse the last String instead of making one per event.
            if let last = lastTypeString, lastTypeBytes.withUnsafeBufferPointer({ Self.equals($0, value) }) {
                eventType = last
            } else {
                let type = Self.string(value)
                lastTypeBytes = Array(value)
                lastTypeString = type
                eventType = type
            }
        } else if Self.equals(name, "id") {
            if !value.contains(0) { idBuffer = Self.string(value) }
        } else if Self.equals(name, "retry") {
            if !value.isEmpty && value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                var v = 0
                for b in value { v = v &* 10 &+ Int(b - 0x30) }
                reconnectionTime = v
            }
        } else if reportsUnknownFields {
            output(.diagnostic(StreamDiagnostic(
                kind: .malformedEvent,
                message: "a line that is not an SSE field was ignored (its text is lost)",
                eventNumber: eventCount + 1, byteOffset: lineStartOffset)))
        }
    }

    private mutating func appendRepaired(_ value: UnsafeBufferPointer<UInt8>) {
        // Valid UTF-8 (the common case) is appended as is.
        if UTF8Validation.check(value).valid {
            data.append(contentsOf: value)
        } else {
            var repair = UTF8Repair()
            repair.repair(value, into: &data)
            repair.finish(into: &data)
        }
    }

    private mutating func dispatch(_ output: (Output) -> Void) {
        // The id field takes effect at dispatch even when nothing is dispatched.
        if let id = idBuffer { lastEventID = id }
        defer { resetEvent() }
        if eventOverflow || !dataHasContent { return }
        eventCount += 1
        output(.event(SSEEvent(
            type: eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message",
            data: data, lastEventID: lastEventID, number: eventCount,
            byteOffset: eventStartOffset ?? lineStartOffset)))
    }

    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: data.capacity <= 1 << 16)
        dataHasContent = false
        eventType = nil
        idBuffer = nil
        eventStartOffset = nil
        eventOverflow = false
        sawAnyField = false
    }
}
