import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to a file descriptor; EPIPE ends the program quietly with 0.
enum FileDescriptorWriter {
    static func write(_ fd: Int32, _ text: String) {
        var copy = text
        copy.withUTF8 { write(fd, $0) }
    }

    static func write(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc_write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == EPIPE { exit(0) }  // the reader went away (`| head`): not an error
                return
            }
            offset += n
        }
    }
}

@inline(__always)
func Glibc_write(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}

/// Standard output and standard error, with the text written per input chunk so
/// every delta that has arrived is visible at once, without a syscall per token.
final class OutputStreams {
    private var out = ""
    private var err = ""
    let stdoutIsTerminal = isatty(STDOUT_FILENO) != 0
    private(set) var lastStdoutByte: UInt8?

    func answer(_ text: String) {
        out += text
    }

    func side(_ text: String) {
        err += text
    }

    /// While a live view owns the screen, messages wait in the side buffer and the
    /// view writes them above its region (see ``flushWholeSideLines()``).
    var liveViewActive = false

    /// A one-line message on standard error (after flushing what came before it).
    func error(_ message: String) {
        writeMessage("stream-render: error: \(message)\n")
    }

    func warning(_ message: String) {
        writeMessage("stream-render: warning: \(message)\n")
    }

    private func writeMessage(_ line: String) {
        if liveViewActive {
            if !err.isEmpty && !err.hasSuffix("\n") { err += "\n" }
            err += line
            return
        }
        flush()
        FileDescriptorWriter.write(STDERR_FILENO, line)
    }

    /// Appends raw bytes (escape sequences of the live view) to standard output.
    func answerBytes(_ bytes: [UInt8]) {
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Whether standard error has whole lines waiting (the live view clears its
    /// region before they are written, and repaints after).
    var hasSideLines: Bool { err.contains("\n") }

    /// Writes standard output, then the whole lines waiting for standard error (a
    /// partial line stays until its end arrives, so the live view below it is
    /// never written into the middle of a line).
    func flushWholeSideLines() {
        flushOut()
        guard let last = err.lastIndex(of: "\n") else { return }
        let lines = String(err[...last])
        err.removeSubrange(...last)
        FileDescriptorWriter.write(STDERR_FILENO, lines)
    }

    private func flushOut() {
        if !out.isEmpty {
            lastStdoutByte = out.utf8.last
            FileDescriptorWriter.write(STDOUT_FILENO, out)
            out.removeAll(keepingCapacity: true)
        }
    }

    func flush() {
        flushOut()
        // A live view writes messages itself, between frames (whole lines only).
        if !err.isEmpty && !liveViewActive {
            FileDescriptorWriter.write(STDERR_FILENO, err)
            err.removeAll(keepingCapacity: true)
        }
    }
}
