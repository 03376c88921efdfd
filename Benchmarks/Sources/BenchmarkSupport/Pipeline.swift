import Foundation
import StreamRender

/// Issue 9: the whole pipeline, as users run it (the `stream-render` process) and as a
/// library call (`StreamRenderer`), in every output mode.
extension Corpus {
    /// The coding answer's delta events repeated until the answer's text is at least
    /// `textBytes` bytes: an Anthropic stream of one small delta per event, as the
    /// fixture has them (the 1 MB answer is about 30 MB of SSE).
    public static func answerStream(textBytes: Int) -> [UInt8] {
        events(answerTextBytes: textBytes).flatMap { $0 }
    }

    /// The same stream, one SSE event per element.
    public static func events(answerTextBytes textBytes: Int) -> [[UInt8]] {
        let text = String(decoding: fixture("sse/coding-answer.anthropic.sse"), as: UTF8.self)
        let events = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { Array(($0 + "\n\n").utf8) }
        let isDelta = { (e: [UInt8]) in e.starts(with: Array("event: content_block_delta".utf8)) }
        let head = Array(events.prefix { !isDelta($0) })
        let deltas = events.filter(isDelta)
        let tail = Array(events.drop { !$0.starts(with: Array("event: content_block_stop".utf8)) })
        let perRound = textDeltas(of: fixture("sse/coding-answer.anthropic.sse")).reduce(0) { $0 + $1.utf8.count }
        var out = head
        for _ in 0..<max(1, (textBytes + perRound - 1) / perRound) { out += deltas }
        return out + tail
    }

    /// The stream through a `StreamRenderer` fed one event at a time into a counting
    /// sink, its clock advancing 1 ms per event (so a live view draws at its 60 fps,
    /// a frame every 17 events). Returns the bytes written.
    ///
    /// With `repeats`, the delta events are fed that many times over (the 10 MB answer
    /// is the 1 MB one's deltas ten times: the same stream, without timing the
    /// harness's walk through 2.5 million separately allocated events).
    @inline(never)
    public static func renderEvents(_ events: [[UInt8]], output: StreamRenderer.Configuration.Output, repeats: Int = 1) -> Int {
        let sink = DiscardingSink()
        let configuration = StreamRenderer.Configuration(output: output, layout: LayoutSettings(width: 80),
            live: .init(height: 24), capabilities: TerminalCapabilities(colors: .truecolor))
        let renderer = StreamRenderer(configuration: configuration, sink: sink)
        var now = Duration.zero
        let isDelta = { (e: [UInt8]) in e.starts(with: Array("event: content_block_delta".utf8)) }
        let first = events.firstIndex(where: isDelta) ?? events.count
        let last = (events.lastIndex(where: isDelta) ?? events.count - 1) + 1
        func feed(_ range: Range<Int>) {
            for event in events[range] {
                event.withUnsafeBufferPointer { renderer.feed($0) }
                renderer.tick(now: now)
                now += .milliseconds(1)
            }
        }
        feed(0..<first)
        for _ in 0..<repeats { feed(first..<last) }
        feed(last..<events.count)
        renderer.finish()
        return sink.bytes
    }

    /// CPU seconds (user + system) of the process `binary arguments` reading a file
    /// named in `arguments` or, with `events`, a pipe written one event per write(2);
    /// standard output to /dev/null; its exit status must be 0. CPU time, not wall
    /// time: on these shared machines wall time of the same run wanders by 1.5x, and
    /// the writer's time is the benchmark's, not the renderer's.
    public static func processSeconds(_ binary: String, _ arguments: [String], events: [[UInt8]]? = nil) -> Double {
        processTimes(binary, arguments, events: events).cpu
    }

    /// Wall-clock and CPU seconds of the process (see ``processSeconds(_:_:events:)``).
    public static func processTimes(_ binary: String, _ arguments: [String], events: [[UInt8]]? = nil)
        -> (wall: Double, cpu: Double) {
        func childrenCPU() -> Double {
            var usage = rusage()
            #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
            #else
            getrusage(RUSAGE_CHILDREN, &usage)
            #endif
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let before = childrenCPU()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle.standardError
        let pipe = Pipe()
        process.standardInput = events == nil ? FileHandle.nullDevice : pipe
        let start = DispatchTime.now().uptimeNanoseconds
        try! process.run()
        if let events {
            let fd = pipe.fileHandleForWriting.fileDescriptor
            for event in events {
                event.withUnsafeBufferPointer { buf in
                    var offset = 0
                    while offset < buf.count {
                        let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                        if n <= 0 { if errno == EINTR { continue }; return }
                        offset += n
                    }
                }
            }
            try? pipe.fileHandleForWriting.close()
        }
        process.waitUntilExit()  // reaps it: its times are in RUSAGE_CHILDREN now
        precondition(process.terminationStatus == 0, "\(binary) \(arguments) exited \(process.terminationStatus)")
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, childrenCPU() - before)
    }
}

/// A sink that counts bytes and keeps nothing.
public final class DiscardingSink: RenderSink {
    public private(set) var bytes = 0
    public init() {}
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes += bytes.count }
    public func writeMessage(_ text: String, kind: RenderMessageKind) {}
}
