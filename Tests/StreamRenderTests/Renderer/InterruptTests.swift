import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Ctrl-C (``StreamRenderer/interrupt()``) shows what the decoder still holds: the
/// bytes held while the format is detected, SSE not yet confirmed, an open JSON
/// document, plain-text SSE's event still arriving, a scalar cut short (as U+FFFD).
@Suite struct InterruptTests {
    /// The text a plain, unwrapped renderer shows for `input` interrupted after it
    /// (the view and the warnings, which an interrupt should not need).
    static func interrupted(_ input: [UInt8]) -> (shown: String, warnings: String, outcome: StreamRenderer.Outcome) {
        let (r, sink, _) = StreamRendererTests.renderer(.plain, width: 200, markdown: false)
        r.feed(input)
        let outcome = r.interrupt()
        return (String(decoding: sink.bytes, as: UTF8.self), sink.messageText(.warning) + sink.messageText(.error), outcome)
    }

    static func interrupted(_ input: String) -> (shown: String, warnings: String, outcome: StreamRenderer.Outcome) {
        interrupted(Array(input.utf8))
    }

    @Test(arguments: ["da", "eve", "data: a first line still arriving", "event: launch par", ":) smi"])
    func anUndecidedFirstLineIsShown(_ input: String) {
        let r = Self.interrupted(input)
        #expect(r.outcome.ending == .interrupted)
        #expect(r.shown.hasPrefix(input), "\(r.shown.debugDescription)")
        #expect(r.warnings.isEmpty, "\(r.warnings)")
    }

    /// SSE whose first event was text, waiting for a second event to confirm it: the
    /// events that arrived are shown as plain-text SSE.
    @Test func unconfirmedPlainTextSSEIsShown() {
        let r = Self.interrupted("data: Hello,\n\n")
        #expect(r.shown.hasPrefix("Hello,"), "\(r.shown.debugDescription)")
        #expect(r.outcome.format == .sseText)
    }

    /// Lines that looked like SSE but were not confirmed by an event: shown as text.
    @Test func unconfirmedSSELookalikeIsShownAsText() {
        let r = Self.interrupted("event: launch party\nwe had a gre")
        #expect(r.shown.hasPrefix("event: launch party\nwe had a gre"), "\(r.shown.debugDescription)")
    }

    /// Plain-text SSE: the event cut short by Ctrl-C is text that arrived, shown as if
    /// its blank line had come (a provider's JSON event cut short is not).
    @Test func plainTextSSEEventStillArrivingIsShown() {
        for input in ["data: one\n\ndata: two\n\ndata: thr", "data: one\n\ndata: two\n\ndata: three\n",
                      "data: one\n\ndata: two\n\ndata: three\r"] {
            let r = Self.interrupted(input)
            #expect(r.shown.hasPrefix("onetwothr"), "\(input.debugDescription): \(r.shown.debugDescription)")
            #expect(r.warnings.isEmpty, "\(r.warnings)")
        }
        // While still unconfirmed (the second event is the one cut short).
        let r = Self.interrupted("data: one\n\ndata: tw")
        #expect(r.shown.hasPrefix("onetw"), "\(r.shown.debugDescription)")
    }

    /// A whole (non-streamed) response body cut short: its bytes are shown as they
    /// came (it cannot be decoded), not dropped.
    @Test func anOpenJSONDocumentIsShownAsItCame() {
        let body = #"{"type":"message","content":[{"type":"text","text":"Hello, wor"#
        let r = Self.interrupted(body)
        #expect(r.shown.hasPrefix(body), "\(r.shown.debugDescription)")
        #expect(r.outcome.format == .text)
    }

    /// A scalar cut short by Ctrl-C is shown as U+FFFD, in text and while the first
    /// line is undecided.
    @Test func aPartialScalarIsShownAsAReplacementCharacter() {
        for (input, expected) in [(Array("café ".utf8) + [0xE6, 0x97], "café \u{FFFD}"),
                                  ([0xE6, 0x97], "\u{FFFD}"),
                                  (Array("da".utf8) + [0xC3], "da\u{FFFD}")] {
            let r = Self.interrupted(input)
            #expect(r.shown.hasPrefix(expected), "\(input): \(r.shown.debugDescription)")
        }
    }

    /// The same cases through the live inline view: the text reaches the terminal.
    @Test func theInlineViewShowsWhatTheDecoderHeld() {
        for (input, expected) in [("data: one\n\ndata: tw", "onetw"), ("{\"a\":[1,", "{\"a\":[1,"), ("eve", "eve")] {
            let (r, sink, _) = StreamRendererTests.renderer(.inline, width: 40)
            r.feed(Array(input.utf8))
            r.tick(now: .zero)
            r.interrupt()
            var model = ModelTerminal(width: 40, height: 8, policy: .grapheme)
            model.apply(sink.bytes)
            #expect((model.scrollback + model.rows).contains { $0.hasPrefix(expected) }, "\(input.debugDescription)")
        }
    }
}
