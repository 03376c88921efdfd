// sample-minimal: the smallest program that embeds StreamRender, the one to copy.
//
// It streams a file (or standard input) through a StreamRenderer: on a terminal the
// live view draws the answer inline, revealed at a reading pace; into a pipe it
// prints plain lines. Feed chunks, tick, finish; the exit status comes from the
// Outcome (0 complete, 1 the stream failed).
//
//   swift run sample-minimal Tests/StreamRenderTests/Resources/sse/coding-answer.anthropic.sse
//   swift run sample-minimal < Tests/StreamRenderTests/Resources/answers/coding-answer.md
//
// Blocking reads keep it short: frames are drawn between reads. A program that must
// draw while its input stalls, follow resizes or stop on Ctrl-Z drives the renderer
// with RenderLoop (as `stream-render` does) or `render(_:)` (see sample-async).
import StreamRender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let sink = FileDescriptorSink(messagePrefix: "sample-minimal: ")  // the view to stdout, problems to stderr
let path = CommandLine.arguments.dropFirst().first
let input = path.map { open($0, O_RDONLY) } ?? STDIN_FILENO
guard input >= 0 else { sink.writeMessage("cannot open \(path!)\n", kind: .error); exit(3) }
// The terminal decides: its size and colours, NO_COLOR, TERM=dumb; a pipe gets plain lines.
let configuration = StreamRenderer.Configuration.forTerminal(TerminalSession())
let renderer = StreamRenderer(configuration: configuration, sink: sink)
let restore = ANSIEncoder.restoreSequence(fullscreen: false)  // Ctrl-C: pen reset, cursor shown, fresh line
if configuration.output != .plain { signal(SIGINT) { _ in restore.withUnsafeBufferPointer { _ = write(1, $0.baseAddress, $0.count) }; _exit(130) } }
var buffer = [UInt8](repeating: 0, count: 1 << 16)
while case let count = read(input, &buffer, buffer.count), count > 0 {
    renderer.feed(buffer[..<count])  // SSE or text, cut anywhere
    renderer.tick()                  // draws a frame if one is due
}
let outcome = renderer.finish()      // the pacer reveals what is left (within 200 ms), the view ends,
                                     // and a failed stream is reported on stderr
exit(outcome.isComplete ? 0 : 1)
