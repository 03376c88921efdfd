#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``RenderSink`` writing the view to one file descriptor (standard output) and
/// messages to another (standard error), each write whole (EINTR and short writes
/// retried). When the reader of the output goes away (`EPIPE`, as with `| head`),
/// writing stops and ``isBroken`` says so; it is not an error.
///
/// Not `Sendable`: it tracks the broken state and counts without a lock; the thread
/// that drives its renderer writes through it.
public final class FileDescriptorSink: RenderSink {
    public let output: Int32
    public let messages: Int32
    /// Put before warning and error lines (`"stream-render: "`).
    public let messagePrefix: String
    public private(set) var isBroken = false
    /// The errno of the write that failed, if any (EPIPE: the reader went away).
    public private(set) var failure: Int32?
    /// Bytes written to the output.
    public private(set) var bytesWritten = 0

    public init(output: Int32 = STDOUT_FILENO, messages: Int32 = STDERR_FILENO, messagePrefix: String = "") {
        self.output = output
        self.messages = messages
        self.messagePrefix = messagePrefix
    }

    /// - Complexity: O(n) in the bytes, plus the time the reader takes.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !isBroken else { return }
        if !Self.writeAll(output, bytes) {
            isBroken = true
            failure = errno
        }
        bytesWritten += bytes.count
    }

    /// - Complexity: O(n) in the bytes of `text`.
    public func writeMessage(_ text: String, kind: RenderMessageKind) {
        var line: String
        switch kind {
        case .side: line = text
        case .warning: line = messagePrefix + "warning: " + text
        case .error: line = messagePrefix + "error: " + text
        }
        line.withUTF8 { _ = Self.writeAll(messages, $0) }
    }

    /// Reads what `fd` has, up to `buffer.count` bytes: 0 at its end, -1 (errno set) when
    /// reading failed. A non-blocking descriptor with nothing yet (EAGAIN, as a parent
    /// may leave standard input) is waited on with poll(2), not retried in a spin;
    /// EINTR is retried.
    ///
    /// - Complexity: O(n) in the bytes read, plus the time the writer takes.
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(fd, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { return -1 }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 1000)
        }
    }

    /// Writes every byte; false when the reader went away (EPIPE) or writing failed.
    /// A non-blocking descriptor that is full (EAGAIN) is waited on with poll(2), not
    /// retried in a spin.
    ///
    /// - Complexity: O(n) in the bytes, plus the time the reader takes.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let n = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                return false
            }
            offset += n
        }
        return true
    }
}
