/// What auto-detection has seen of input that may be plain-text SSE (`data: Hello`):
/// whether a line that is not an SSE field or comment came first, or two events
/// were completed with every line before them a field or comment.
///
/// Its verdict is taken from the input's bytes alone, whatever their chunking: it
/// stops looking at the first line that is not a field (``sawOtherLine``) or at the
/// blank line completing the second event (``completedEvents`` = 2), so bytes after
/// that point cannot change it.
struct SSELineEvidence: Sendable {
    /// Events completed (a blank line after at least one `data` line), up to 2.
    private(set) var completedEvents = 0
    /// A complete line that is neither blank, an SSE field nor a comment was seen
    /// before the second event was completed.
    private(set) var sawOtherLine = false
    /// The current line's first bytes: enough to tell a field name and a BOM.
    private var prefix: [UInt8] = []
    private var lineLength = 0
    private var eventHasData = false
    private var lastWasCR = false
    private var firstLine = true

    /// Whether the verdict is final.
    var isDecided: Bool { sawOtherLine || completedEvents >= 2 }

    /// Looks at the next bytes of the input.
    ///
    /// - Complexity: O(n) in the bytes.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes {
            if isDecided { return }
            if lastWasCR {
                lastWasCR = false
                if b == 0x0A { continue }
            }
            if b == 0x0A || b == 0x0D {
                endLine()
                lastWasCR = b == 0x0D
            } else {
                lineLength += 1
                if prefix.count < 9 { prefix.append(b) }
            }
        }
    }

    /// The input ended: a last line without a line end is judged too.
    ///
    /// - Complexity: O(1).
    mutating func finish() {
        if !isDecided && lineLength > 0 { endLine() }
    }

    private mutating func endLine() {
        var line = prefix[...]
        var length = lineLength
        if firstLine && line.starts(with: [0xEF, 0xBB, 0xBF]) {
            line = line.dropFirst(3)
            length -= 3
        }
        firstLine = false
        prefix.removeAll(keepingCapacity: true)
        lineLength = 0
        if length == 0 {
            if eventHasData { completedEvents += 1 }
            eventHasData = false
            return
        }
        // A prefix shorter than the line is never mistaken for a bare field name:
        // it holds at least 6 bytes, one more than the longest name.
        let start = Array(line)
        if !ResponseDecoder.isSSEFieldLine(start) {
            sawOtherLine = true
        } else if start.starts(with: "data".utf8) && (length == 4 || start[4] == UInt8(ascii: ":")) {
            eventHasData = true
        }
    }
}
