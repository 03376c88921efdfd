/// Decodes Ollama's streams: newline-delimited JSON from `/api/chat` and
/// `/api/generate`, one object per line (each line arrives as an ``SSEEvent`` whose
/// data is the line; `NDJSONSplitter` cuts them).
///
/// | Ollama | Events |
/// | --- | --- |
/// | the first line | ``StreamEvent/messageStart(id:model:usage:)`` (`model`; Ollama has no response id) |
/// | `message.content` (chat), `response` (generate) | a text ``StreamEvent/delta(index:kind:text:)`` |
/// | `message.thinking` (chat), `thinking` (generate) | a ``DeltaKind/thinking`` delta, before the line's text |
/// | `message.tool_calls[i].function` `{"name", "arguments"}` | a ``ContentBlockKind/toolUse(id:name:)`` block whose input is `arguments` (`id`: the call's `id` if it has one) |
/// | `"done": true` | open blocks stopped, ``StreamEvent/messageDelta(stopReason:stopSequence:usage:)`` (`done_reason`; usage: input `prompt_eval_count`, output `eval_count`), ``StreamEvent/messageStop`` |
/// | `{"error": "…"}` (or an object with a `message`) | ``StreamEvent/error(type:message:)`` of type `error` |
/// | any other object | ``StreamEvent/unknown(type:)`` `line` |
///
/// Runs of text and of thinking are blocks numbered in arrival order (see
/// `SequentialBlocks`).
struct OllamaDecoder: StreamEventDecoder, Sendable {
    private var json = JSONReader()
    private var blocks: SequentialBlocks
    private var started = false
    private(set) var isComplete = false

    /// `assemblesText` false: ``StreamEvent/blockStop(_:)`` carries no text (and tool
    /// input only up to 4 KiB), so memory stays bounded however long the answer is.
    ///
    /// - Complexity: O(1).
    init(assemblesText: Bool = true) {
        blocks = SequentialBlocks(assemblesText: assemblesText)
    }

    /// Decodes one line (the event's data).
    ///
    /// - Complexity: O(n) in the line's bytes.
    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        guard let root = json.parseEventObject(event, diagnose: diagnose) else { return }
        if let error = root["error"] {
            emit(Self.error(error))
            return
        }
        let message = root["message"]
        let done = root["done"]?.bool
        guard message?.kind == .object || root["response"] != nil || done != nil else {
            emit(.unknown(type: "line"))
            return
        }
        if !started {
            started = true
            emit(.messageStart(id: nil, model: root["model"]?.string, usage: Usage()))
        }
        if let thinking = message?["thinking"]?.string ?? root["thinking"]?.string, !thinking.isEmpty {
            blocks.add(.thinking, thinking, emit)
        }
        if let text = message?["content"]?.string ?? root["response"]?.string, !text.isEmpty {
            blocks.add(.text, text, emit)
        }
        if let calls = message?["tool_calls"], calls.kind == .array {
            for call in calls.elements {
                let function = call["function"]
                let arguments = function?["arguments"]
                blocks.toolCall(id: call["id"]?.string ?? "", name: function?["name"]?.string ?? "",
                                inputJSON: arguments?.string ?? arguments?.sourceText ?? "{}", emit)
            }
        }
        if done == true {
            blocks.stop(emit)
            emit(.messageDelta(stopReason: root["done_reason"]?.string, stopSequence: nil,
                               usage: Usage(inputTokens: root["prompt_eval_count"]?.int, outputTokens: root["eval_count"]?.int)))
            if !isComplete {
                isComplete = true
                emit(.messageStop)
            }
        }
    }

    static func error(_ error: JSONValue) -> StreamEvent {
        .error(type: error["type"]?.string ?? "error", message: error.string ?? error["message"]?.string ?? error.sourceText)
    }

    /// Whether `root` is a line of an Ollama stream: `model`, `done`, and `message`
    /// (chat) or `response` (generate).
    static func isStreamLine(_ root: JSONValue) -> Bool {
        root["model"]?.kind == .string && root["done"]?.kind == .bool
            && (root["message"]?.kind == .object || root["response"]?.kind == .string)
    }
}
