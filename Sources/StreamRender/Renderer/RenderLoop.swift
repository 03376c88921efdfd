#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives a ``StreamRenderer`` from a file descriptor (or a timed list of chunks)
/// on a terminal: one poll(2) waits on the input, the signal pipe and the frame
/// clock together, so a resize, a Ctrl-C or a due frame is handled at once even
/// while input stalls, and an idle loop does no work.
///
/// Signals: SIGWINCH re-wraps at the terminal's new size; SIGINT, SIGTERM and
/// SIGHUP end the view with everything that arrived shown (``StreamRenderer/interrupt()``);
/// SIGTSTP suspends the view, stops the process with the terminal restored, and
/// draws again when continued.
///
/// Not `Sendable`: it drives one renderer and the process's signal pipe from the
/// calling thread.
public struct RenderLoop {
    public enum Ending: Sendable {
        /// The input ended (or failed to read); the outcome says how.
        case finished(StreamRenderer.Outcome)
        /// A signal ended it (its number); everything that arrived was shown.
        case signal(Int32, StreamRenderer.Outcome)
        /// The output's reader went away (EPIPE).
        case brokenPipe
    }

    public let renderer: StreamRenderer
    public let sink: FileDescriptorSink
    public let terminal: TerminalSession
    public let signalDescriptor: Int32
    /// Sizes asked for on the command line; a resize keeps within them.
    public var explicitWidth: Int?
    public var explicitHeight: Int?
    /// The read buffer's size.
    public var readSize = 1 << 16
    /// End with ``StreamRenderer/Outcome/Ending/timedOut(idle:)`` when no input arrives
    /// for this long (nil: wait forever).
    public var idleTimeout: Duration?

    public init(renderer: StreamRenderer, sink: FileDescriptorSink, terminal: TerminalSession, signalDescriptor: Int32,
                explicitWidth: Int? = nil, explicitHeight: Int? = nil) {
        self.renderer = renderer
        self.sink = sink
        self.terminal = terminal
        self.signalDescriptor = signalDescriptor
        self.explicitWidth = explicitWidth
        self.explicitHeight = explicitHeight
    }

    /// Reads `input` to its end.
    ///
    /// - Complexity: O(n) in the bytes read, plus the frames drawn (each as ``StreamRenderer/tick(now:)``).
    public mutating func run(reading input: Int32, name: String) -> Ending {
        var buffer = [UInt8](repeating: 0, count: readSize)
        var lastInput = renderer.currentTime
        while true {
            var deadline = renderer.nextFrameTime
            if let idleTimeout { deadline = min(deadline ?? lastInput + idleTimeout, lastInput + idleTimeout) }
            switch wait(for: input, until: deadline) {
            case .signal(let ending?): return ending
            case .broken: return .brokenPipe
            case .signal(nil), .timeout:
                if let idleTimeout, renderer.currentTime >= lastInput + idleTimeout {
                    let outcome = renderer.finish(idleTimeout: idleTimeout)
                    return sink.isBroken ? .brokenPipe : .finished(outcome)
                }
                continue
            case .input: lastInput = renderer.currentTime
            }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .finished(renderer.finish(readError: "\(name): \(String(cString: strerror(errno)))"))
            }
            if count == 0 { break }
            buffer.withUnsafeBufferPointer { renderer.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            tick()
            if sink.isBroken { return .brokenPipe }
        }
        return drainAndFinish()
    }

    /// The input ended: the pacer reveals the rest (frames on its clock, signals
    /// still handled), then the view is finished.
    private mutating func drainAndFinish() -> Ending {
        renderer.endInput()
        // Nothing left to reveal (no pacer, or its backlog shown): the last frame is
        // drawn by `finish()` at once, not a frame interval after the one before.
        while !renderer.isRevealComplete, let due = renderer.nextFrameTime {
            switch wait(for: nil, until: due) {
            case .signal(let ending?): return ending
            case .broken: return .brokenPipe
            default: break
            }
        }
        let outcome = renderer.finish()
        return sink.isBroken ? .brokenPipe : .finished(outcome)
    }

    /// Feeds `chunks` one per `interval`.
    ///
    /// - Complexity: O(n) in the bytes, plus the frames drawn; takes about `chunks.count` x `interval`.
    public mutating func run(chunks: [[UInt8]], every interval: Duration) -> Ending {
        run(replaying: chunks.enumerated().map { ReplayCapture.Chunk(time: interval * $0.offset, bytes: $0.element) })
    }

    /// Feeds each chunk at its time after the start (a recorded stream played as it
    /// arrived: `--replay`, the demo), frames and signals handled in between.
    ///
    /// - Complexity: O(n) in the bytes, plus the frames drawn; takes about the last chunk's time.
    public mutating func run(replaying chunks: [ReplayCapture.Chunk]) -> Ending {
        let start = renderer.currentTime
        for chunk in chunks {
            let due = start + chunk.time
            while renderer.currentTime < due {
                let frame = renderer.nextFrameTime.map { min($0, due) } ?? due
                switch wait(for: nil, until: frame) {
                case .signal(let ending?): return ending
                case .broken: return .brokenPipe
                default: break
                }
            }
            renderer.feed(chunk.bytes)
            tick()
            if sink.isBroken { return .brokenPipe }
        }
        return drainAndFinish()
    }

    private enum Wake { case input, timeout, signal(Ending?), broken }

    /// Waits for input, a signal or `deadline` (renderer time), drawing a due frame.
    private mutating func wait(for input: Int32?, until deadline: Duration?) -> Wake {
        var timeout: Int32 = -1
        if let deadline {
            let left = deadline - renderer.currentTime
            let ms = left <= .zero ? 0 : Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000) + 1
            timeout = Int32(min(ms, 60_000))
        }
        let woken = SignalWatcher.pollOnce(signals: signalDescriptor, input: input, timeoutMilliseconds: timeout)
        if woken.signals {
            if let ending = handleSignals() { return .signal(ending) }
        }
        tick()
        if sink.isBroken { return .broken }
        if woken.input { return .input }
        return woken.ready ? .signal(nil) : .timeout
    }

    /// Draws a due frame, at the terminal's size: a resize not yet heard of (its signal
    /// came while input was read and fed) is drawn first, so no frame goes out at a
    /// width the terminal no longer has (it would wrap rows the view does not know of).
    private func tick() {
        resizeToTerminal(always: false)
        renderer.tick()
    }

    /// Re-wraps at the terminal's size (within the sizes asked for) and repaints;
    /// `always`: also at the same size (to draw again after a stop), else only when it
    /// changed (a resize the frame before drew already is not drawn twice).
    private func resizeToTerminal(always: Bool = true) {
        guard let size = terminal.size else { return }
        let wanted = (width: min(explicitWidth ?? size.columns, size.columns), height: min(explicitHeight ?? size.rows, size.rows))
        if !always && wanted == renderer.viewSize { return }
        renderer.resize(width: wanted.width, height: wanted.height, screenRows: size.rows)
    }

    private mutating func handleSignals() -> Ending? {
        for signal in SignalWatcher.takeSignals() {
            switch signal {
            case SIGINT, SIGTERM, SIGHUP:
                return .signal(signal, renderer.interrupt())
            case SIGWINCH:
                resizeToTerminal(always: false)
            case SIGCONT:  // also after `bg` then `fg`: echo off again in the foreground
                terminal.disableEcho()
                resizeToTerminal()
            case SIGTSTP:
                renderer.suspend()
                terminal.stopProcess()
                resizeToTerminal()  // redrawn where the shell left the cursor
            default:
                break
            }
        }
        return nil
    }
}
