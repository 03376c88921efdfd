/// Turns server-sent events (or raw text) into ``StreamEvent``s.
public protocol StreamEventDecoder {
    /// Decodes one server-sent event. A malformed event is reported with `diagnose`
    /// and decoding goes on with the next one.
    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void)

    /// Whether the stream's terminal event (`message_stop`, `[DONE]`,
    /// `response.completed`) has been seen.
    var isComplete: Bool { get }
}

extension StreamDiagnostic {
    static func malformed(_ event: SSEEvent, _ message: String) -> StreamDiagnostic {
        StreamDiagnostic(kind: .malformedEvent, message: message, eventNumber: event.number, byteOffset: event.byteOffset)
    }
}

extension JSONReader {
    /// Parses an event's data as a JSON object, or reports why it is not one.
    ///
    /// - Complexity: O(n) in the event's data bytes.
    mutating func parseEventObject(_ event: SSEEvent, diagnose: (StreamDiagnostic) -> Void) -> JSONValue? {
        let root: JSONValue
        do {
            root = try parse(event.data)
        } catch {
            diagnose(.malformed(event, "malformed JSON: \(error)"))
            return nil
        }
        guard root.kind == .object else {
            diagnose(.malformed(event, "expected a JSON object"))
            return nil
        }
        return root
    }
}
