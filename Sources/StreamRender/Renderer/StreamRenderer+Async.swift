#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StreamRenderer {
    // Swift 6.2 checks that generic types crossing into the reading task have sendable
    // metatypes (every ordinary type has); 6.1 has no such protocol.
    #if compiler(>=6.2)
    /// Renders a byte stream (`URLSession.bytes`, a file handle's bytes...) as it
    /// arrives, until it ends, throws (``Outcome/Ending/readFailed(message:)``) or the
    /// task is cancelled (``Outcome/Ending/interrupted``); the view is finished in
    /// every case.
    ///
    /// The sequence is read by a child task, so frames keep to the frame clock while
    /// input stalls: what arrived is drawn within a frame, and an idle renderer does
    /// no work until input arrives.
    ///
    /// - Complexity: O(n) in the bytes, plus one frame per frame interval with changes.
    public func render<Bytes: AsyncSequence>(_ bytes: sending Bytes) async -> Outcome where Bytes.Element == UInt8, Bytes: SendableMetatype, Bytes.AsyncIterator: SendableMetatype {
        let inbox = ByteInbox()
        return await run(inbox, reader: Task.detached { await inbox.read(bytes: bytes) })
    }

    /// Renders a stream of byte chunks (`[UInt8]`, `ArraySlice<UInt8>`, `Data`...) as
    /// they arrive; see ``render(_:)-(Bytes)``.
    ///
    /// - Complexity: O(n) in the bytes, plus one frame per frame interval with changes.
    public func render<Chunks: AsyncSequence>(chunks: sending Chunks) async -> Outcome
    where Chunks.Element: Collection, Chunks.Element.Element == UInt8, Chunks: SendableMetatype,
          Chunks.AsyncIterator: SendableMetatype, Chunks.Element: SendableMetatype {
        let inbox = ByteInbox()
        return await run(inbox, reader: Task.detached { await inbox.read(chunks: chunks) })
    }

    #else
    /// Renders a byte stream (`URLSession.bytes`, a file handle's bytes...) as it
    /// arrives, until it ends, throws (``Outcome/Ending/readFailed(message:)``) or the
    /// task is cancelled (``Outcome/Ending/interrupted``); the view is finished in
    /// every case.
    ///
    /// The sequence is read by a child task, so frames keep to the frame clock while
    /// input stalls: what arrived is drawn within a frame, and an idle renderer does
    /// no work until input arrives.
    ///
    /// - Complexity: O(n) in the bytes, plus one frame per frame interval with changes.
    public func render<Bytes: AsyncSequence>(_ bytes: sending Bytes) async -> Outcome where Bytes.Element == UInt8 {
        let inbox = ByteInbox()
        return await run(inbox, reader: Task.detached { await inbox.read(bytes: bytes) })
    }

    /// Renders a stream of byte chunks (`[UInt8]`, `ArraySlice<UInt8>`, `Data`...) as
    /// they arrive; see ``render(_:)-(Bytes)``.
    ///
    /// - Complexity: O(n) in the bytes, plus one frame per frame interval with changes.
    public func render<Chunks: AsyncSequence>(chunks: sending Chunks) async -> Outcome
    where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        let inbox = ByteInbox()
        return await run(inbox, reader: Task.detached { await inbox.read(chunks: chunks) })
    }

    #endif

    private func run(_ inbox: ByteInbox, reader: Task<Void, Never>) async -> Outcome {
        await withTaskCancellationHandler {
            while true {
                let (chunk, closed, error) = inbox.take()
                if !chunk.isEmpty { feed(chunk) }
                if Task.isCancelled {
                    reader.cancel()
                    return interrupt()
                }
                if closed {
                    if let error { return finish(readError: error) }
                    // The pacer reveals the rest before the view ends.
                    endInput()
                    while let due = nextFrameTime {
                        try? await sleep(due)
                        if Task.isCancelled { return interrupt() }
                        tick()
                    }
                    return finish()
                }
                tick()
                if let due = nextFrameTime {
                    let sleep = self.sleep
                    let timer = Task {
                        try? await sleep(due)
                        inbox.wake()
                    }
                    await inbox.wait()
                    timer.cancel()
                } else {
                    await inbox.wait()
                }
            }
        } onCancel: {
            inbox.wake()
        }
    }
}

/// Bytes handed from a reading task to the rendering one, with a wake-up for either
/// new bytes, the end, or a timer.
final class ByteInbox: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var bytes: [UInt8] = []
    private var closed = false
    private var failure: String?
    private var woken = false
    private var waiter: CheckedContinuation<Void, Never>?

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Resumes the waiter, if any (called with the lock held; resumed after).
    private func takeWaiter() -> CheckedContinuation<Void, Never>? {
        let w = waiter
        waiter = nil
        if w == nil { woken = true }
        return w
    }

    /// Hands over every byte of `bytes`, then the end (or the error).
    func read<Bytes: AsyncSequence>(bytes: Bytes) async where Bytes.Element == UInt8 {
        do {
            // Each byte is handed over at once: whether the next one is already there
            // cannot be known, and the renderer takes them in bulk anyway.
            for try await byte in bytes { append(CollectionOfOne(byte)) }
            close(error: nil)
        } catch {
            close(error: "\(error)")
        }
    }

    /// Hands over every chunk of `chunks`, then the end (or the error).
    func read<Chunks: AsyncSequence>(chunks: Chunks) async where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        do {
            for try await chunk in chunks { append(chunk) }
            close(error: nil)
        } catch {
            close(error: "\(error)")
        }
    }

    func append<C: Collection>(_ chunk: C) where C.Element == UInt8 {
        locked { bytes.append(contentsOf: chunk); return takeWaiter() }?.resume()
    }

    func close(error: String?) {
        locked { closed = true; failure = error; return takeWaiter() }?.resume()
    }

    func wake() {
        locked { takeWaiter() }?.resume()
    }

    /// The bytes that arrived, and whether the input ended (with its error, if any).
    func take() -> (bytes: [UInt8], closed: Bool, error: String?) {
        locked {
            let taken = bytes
            bytes = []
            return (taken, closed, failure)
        }
    }

    /// Returns once bytes, the end or a wake-up arrived since the last wait.
    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready: Bool = locked {
                if woken || !bytes.isEmpty || closed {
                    woken = false
                    return true
                }
                waiter = c
                return false
            }
            if ready { c.resume() }
        }
    }
}
