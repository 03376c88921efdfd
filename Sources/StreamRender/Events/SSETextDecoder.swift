/// Decodes server-sent events whose data is the text itself, not JSON, as many
/// home-made servers send (`data: Hello`, `data:  world`):
///
/// - each event's data is a text ``StreamEvent/delta(index:kind:text:)`` on block 0,
///   appended with nothing between events (`data: Hello` then `data:  world` is
///   "Hello world": the parser drops one space after the colon, the second keeps one);
/// - a line break inside the text is an event with several `data:` lines, which SSE
///   joins with LF (`data: a` `data: b` is "a\nb"; `data: a` `data:` is "a\n");
/// - `data: [DONE]` (any event type) is ``StreamEvent/messageStop``: the stream is
///   complete; without it, the stream counts as complete when the input ends after
///   at least one event and not inside one (see ``finish(truncated:)``);
/// - `event: error` is ``StreamEvent/error(type:message:)`` with the data as its message;
/// - an event of any other type is text.
struct SSETextDecoder: StreamEventDecoder, Sendable {
    private var events = 0
    private(set) var isComplete = false

    /// - Complexity: O(1).
    init() {}

    /// Decodes one event.
    ///
    /// - Complexity: O(n) in the event's data bytes.
    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        events += 1
        if event.data.elementsEqual("[DONE]".utf8) {
            isComplete = true
            emit(.messageStop)
        } else if event.type == "error" {
            emit(.error(type: "error", message: event.dataString))
        } else if !event.data.isEmpty {
            emit(.delta(index: 0, kind: .text, text: event.dataString))
        }
    }

    /// The input ended; `truncated`: inside an event. Without a `[DONE]` the stream is
    /// complete if at least one event arrived and it did not end inside an event (the
    /// format has no other way to say it is done).
    ///
    /// - Complexity: O(1).
    mutating func finish(truncated: Bool) {
        if events > 0 && !truncated { isComplete = true }
    }
}
