import Foundation
import Testing
@testable import StreamRender

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
        let ok = payload.withUnsafeBufferPointer { FileDescriptorSink.writeAll(writeEnd, $0) }
        close(writeEnd)
        while !received.done(payload.count) { usleep(10_000) }
        #expect(ok)
        #expect(received.bytes == payload)
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
