/// What a stream says besides the answer, typed, as ``StreamRenderer/onSideEvent``
/// delivers it (the renderer also writes each as a message line, as before).
///
/// Strings are as the stream sent them, not sanitised: a host that shows them on a
/// terminal passes them through ``ControlSanitizer`` first.
public enum SideEvent: Sendable, Equatable {
    /// A piece of the model's thinking, as it streams.
    case thinking(String)
    /// The thinking block ended.
    case thinkingEnded
    /// Thinking the provider sent encrypted (shown as `[redacted thinking]`).
    case redactedThinking
    /// A tool call, once its block ended: `arguments` is the JSON input as streamed
    /// (empty when none arrived), `id` empty for providers without call ids (Gemini,
    /// Ollama); `isComplete` false when the stream ended inside the block.
    case toolCall(name: String, arguments: String, id: String, isComplete: Bool)
    /// A provider-side tool's result (web search, code execution, MCP): its block type,
    /// the call it answers, and a one-line gist of its content.
    case toolResult(type: String, id: String, summary: String)
    /// The provider compacted the context (Anthropic's `compaction` block).
    case contextCompacted
    /// The stream reported an error (`error` event, an error chunk), with the place of
    /// the event that carried it when known.
    case error(type: String, message: String, eventNumber: Int?, byteOffset: Int?)
    /// A problem with the input itself: a malformed, oversized or truncated event, or
    /// input that is not the format.
    case diagnostic(StreamDiagnostic)
}
