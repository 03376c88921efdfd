/// Where a ``StreamRenderer`` writes: the view's terminal bytes (standard output)
/// and messages (standard error). A class, so the renderer and its caller share it.
public protocol RenderSink: AnyObject {
    /// Terminal bytes of the view (escape sequences included for the live views).
    func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Text beside the answer: thinking (when not shown in the answer), tool calls,
    /// and `warning` / `error` lines; sanitised, so it holds no control sequence.
    func writeMessage(_ text: String, kind: RenderMessageKind)
}

/// What a message to a ``RenderSink`` is.
public enum RenderMessageKind: Sendable, Equatable {
    /// Thinking text and tool-call lines, as they arrive (not always whole lines).
    case side
    /// A problem that lost nothing, one line.
    case warning
    /// A problem with the input or the stream, one line.
    case error
}

/// A sink that keeps everything in memory (tests, benchmarks, embedding programs
/// that forward the bytes themselves).
///
/// Not `Sendable`: it appends without a lock; one thread (or task) writes into it.
public final class BufferSink: RenderSink {
    public private(set) var bytes: [UInt8] = []
    /// Messages as they arrived, with their kinds.
    public private(set) var messages: [(text: String, kind: RenderMessageKind)] = []
    /// How many times ``write(_:)`` was called.
    public private(set) var writes = 0

    public init() {}

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(contentsOf: bytes)
        writes += 1
    }

    public func writeMessage(_ text: String, kind: RenderMessageKind) {
        messages.append((text, kind))
    }

    /// The messages of one kind, joined.
    public func messageText(_ kind: RenderMessageKind) -> String {
        messages.filter { $0.kind == kind }.map(\.text).joined()
    }

    /// Forgets what was written (keeps the counts' meaning per phase in benchmarks).
    public func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        messages.removeAll()
    }
}
