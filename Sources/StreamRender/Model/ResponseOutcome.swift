/// How a stream ended, and what it said about itself (``StreamRenderer/finish()``,
/// ``AnswerModel/finish()``; also named `StreamRenderer.Outcome`).
public struct ResponseOutcome: Sendable, Equatable {
    public enum Ending: Sendable, Equatable {
        /// The stream's terminal event arrived (`message_stop`, `[DONE]`,
        /// `response.completed`; for text, the end of a non-empty input) and no
        /// text was lost.
        case complete
        /// The provider reported an error (an `error` event or an error body).
        case apiError(type: String, message: String)
        /// The input ended without the stream's terminal event.
        case truncated
        /// Some input could not be decoded (malformed or oversized events, binary
        /// input): the first such problem. Text it carried is lost.
        case invalidInput(StreamDiagnostic)
        /// No bytes arrived.
        case empty
        /// Reading the input failed (the async API: the sequence threw).
        case readFailed(message: String)
        /// Stopped before the input ended (cancellation, Ctrl-C).
        case interrupted
        /// No input arrived for longer than the caller allows (a stalled stream).
        case timedOut(idle: Duration)
    }

    public var ending: Ending
    /// Whether text was lost to malformed or oversized events (also when the stream
    /// ended otherwise, e.g. with an API error).
    public var textDropped: Bool
    /// The format decoded (nil if nothing was decided).
    public var format: ResponseDecoder.Format?
    public var model: String?
    public var stopReason: String?
    public var usage: Usage
    /// From the renderer's start to the first answer text, by its clock.
    public var timeToFirstToken: Duration?
    /// From the renderer's start to ``StreamRenderer/finish()``.
    public var elapsed: Duration
    public var bytesIn: Int
    public var eventCount: Int
    public var deltaCount: Int
    /// Every problem reported, in order (the first 100).
    public var diagnostics: [StreamDiagnostic]

    /// Whether the stream completed with nothing lost.
    public var isComplete: Bool { ending == .complete }

    /// One line saying how the stream ended, for anything but a complete stream.
    public var endingMessage: String? {
        switch ending {
        case .complete: return nil
        case .apiError(let type, let message): return "the stream reported \(type): \(message)"
        case .truncated:
            switch format {
            case .openai?: return "stream ended without [DONE] or response.completed (after \(eventCount) events, byte \(bytesIn))"
            case .anthropic?: return "stream ended without message_stop (after \(eventCount) events, byte \(bytesIn))"
            case .gemini?: return "stream ended without a finishReason (after \(eventCount) events, byte \(bytesIn))"
            case .ollama?: return "stream ended without a \"done\": true line (after \(eventCount) lines, byte \(bytesIn))"
            case .sseText?: return "stream ended inside an event, or before any (after \(eventCount) events, byte \(bytesIn))"
            default: return "no answer could be decoded from the input (\(bytesIn) bytes)"
            }
        case .invalidInput(let d): return "text was lost: \(d)"
        case .empty: return "empty input: no bytes arrived"
        case .readFailed(let message): return "cannot read the input at byte \(bytesIn): \(message)"
        case .interrupted: return "interrupted after \(bytesIn) bytes"
        case .timedOut(let idle):
            let ms = Int(idle.components.seconds) * 1000 + Int(idle.components.attoseconds / 1_000_000_000_000_000)
            let time = ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
            return "no input for \(time): the stream stalled after \(bytesIn) bytes"
        }
    }
}
