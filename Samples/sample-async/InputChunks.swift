#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A failed read(2): its errno.
struct ReadError: Error, CustomStringConvertible {
    var code: Int32
    var description: String { String(cString: strerror(code)) }
}

/// The bytes of a file descriptor as they arrive, in chunks of at most `size` bytes,
/// until its end; a failed read ends the sequence with a ``ReadError``.
///
/// On Apple platforms `FileHandle.standardInput.bytes` is such a sequence (of single
/// bytes: pass it to `render(_:)`); Linux's Foundation has no `bytes`, so this reads
/// the descriptor itself. The blocking read(2) runs on a thread of its own: on a task
/// it would hold one of the cooperative pool's threads (one per core) for as long as
/// the input stalls.
func chunks(readingDescriptor descriptor: Int32, size: Int = 1 << 16) -> AsyncThrowingStream<[UInt8], any Error> {
    AsyncThrowingStream { continuation in
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: size)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    continuation.yield(Array(buffer[..<count]))
                } else if count == 0 {
                    return continuation.finish()
                } else if errno != EINTR {
                    return continuation.finish(throwing: ReadError(code: errno))
                }
            }
        }
    }
}
