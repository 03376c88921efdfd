@_spi(Benchmarks) @testable import StreamRender
import Testing

/// A host on the main actor (a TUI's model, an app's view model) drives a renderer
/// without unchecked escapes: the renderer lives in the host's isolation, fed
/// synchronously or through the async layer.
@MainActor
@Suite struct MainActorHostTests {
    final class Host {
        let sink = BufferSink()
        let renderer: StreamRenderer
        var sideEvents: [SideEvent] = []

        init() {
            renderer = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: 40)), sink: sink)
            renderer.onSideEvent = { [unowned self] in self.sideEvents.append($0) }
        }
    }

    @Test func aMainActorHostFeedsTicksAndFinishes() {
        let host = Host()
        let bytes = Fixtures.data("sse/music.thinking-tool.crlf.sse")
        for k in stride(from: 0, to: bytes.count, by: 97) { host.renderer.feed(bytes[k..<min(bytes.count, k + 97)]); host.renderer.tick() }
        let outcome = host.renderer.finish()
        #expect(outcome.isComplete)
        #expect(!host.sink.bytes.isEmpty)
        #expect(host.sideEvents.contains { if case .toolCall = $0 { true } else { false } })
    }

    @Test func aMainActorHostAwaitsTheAsyncLayer() async {
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: 40)), sink: sink)
        let bytes = Fixtures.data("sse/coding-answer.anthropic.sse")
        let chunks = AsyncStream<[UInt8]> { continuation in
            for k in stride(from: 0, to: bytes.count, by: 512) { continuation.yield(Array(bytes[k..<min(bytes.count, k + 512)])) }
            continuation.finish()
        }
        let outcome = await renderer.render(chunks: chunks)
        #expect(outcome.isComplete)
        // The same bytes as a renderer fed in one piece.
        let whole = BufferSink()
        let reference = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: 40)), sink: whole)
        reference.feed(bytes)
        reference.finish()
        #expect(!sink.bytes.isEmpty && sink.bytes == whole.bytes)
    }
}
