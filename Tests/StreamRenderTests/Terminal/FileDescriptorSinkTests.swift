import Foundation
import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct FileDescriptorSinkTests {
    /// A full non-blocking pipe (EAGAIN) is waited on, not given up on: every byte
    /// arrives once the reader drains it.
    @Test func aFullNonBlockingPipeIsWaitedOn() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }  // far more than a pipe holds
        let received = LockedBytes()
        let reader = Thread {
            usleep(200_000)  // the writer meets a full pipe first
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received.append(buffer[0..<n])
            }
        }
        reader.start()
        let cpu = Self.threadCPUTime()
        let ok = payload.withUnsafeBufferPointer { FileDescriptorSink.writeAll(writeEnd, $0) }
        let spent = Self.threadCPUTime() - cpu
        close(writeEnd)
        while !received.done(payload.count) { usleep(10_000) }
        #expect(ok)
        #expect(received.bytes == payload)
        // Waiting 200 ms on a full pipe in a spin would cost about that in CPU time.
        #expect(spent < 0.1, "the writer used \(spent) s of CPU time waiting on a full pipe for 0.2 s")
    }

    /// A non-blocking descriptor with nothing to read yet (EAGAIN) is waited on with
    /// poll: the bytes are read once they come, at little CPU cost.
    @Test func anEmptyNonBlockingPipeIsWaitedOnForReading() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        #expect(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) == 0)
        let writer = Thread {
            usleep(200_000)
            _ = "late".withCString { write(writeEnd, $0, 4) }
            close(writeEnd)
        }
        writer.start()
        let cpu = Self.threadCPUTime()
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { FileDescriptorSink.readSome(readEnd, into: $0) }
        let spent = Self.threadCPUTime() - cpu
        #expect(n == 4 && buffer.prefix(4).elementsEqual("late".utf8))
        #expect(spent < 0.1, "the reader used \(spent) s of CPU time waiting 0.2 s for input")
    }

    /// This thread's CPU time in seconds.
    static func threadCPUTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}

final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    func append(_ b: ArraySlice<UInt8>) { lock.withLock { storage += b } }
    /// A copy in a buffer of its own, made under the lock (see PacingCommandLineTests'
    /// `received`: a shared buffer read after the lock races with appends in place).
    var bytes: [UInt8] { lock.withLock { storage.withUnsafeBufferPointer { Array($0) } } }
    func done(_ count: Int) -> Bool { lock.withLock { storage.count >= count } }
}
