/// Turns server-sent events (or raw text) into ``StreamEvent``s.
protocol StreamEventDecoder {
    /// Decodes one server-sent event. A malformed event is reported with `diagnose`
    /// and decoding goes on with the next one.
    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void)

    /// Whether the stream's terminal event (`message_stop`, `[DONE]`,
    /// `response.completed`) has been seen.
    var isComplete: Bool { get }

    /// The input ended: blocks still open (a truncated stream) are stopped, marked
    /// incomplete, so a tool call cut short is still shown.
    mutating func finish(emit: (StreamEvent) -> Void)
}

extension StreamEventDecoder {
    mutating func finish(emit: (StreamEvent) -> Void) {}
}

extension StreamDiagnostic {
    static func malformed(_ event: SSEEvent, _ message: String) -> StreamDiagnostic {
        StreamDiagnostic(kind: .malformedEvent, message: message, eventNumber: event.number, byteOffset: event.byteOffset)
    }

    static func unhandled(_ event: SSEEvent, _ message: String) -> StreamDiagnostic {
        StreamDiagnostic(kind: .unhandledContent, message: message, eventNumber: event.number, byteOffset: event.byteOffset)
    }
}

extension JSONValue {
    /// The name of a member (at most two levels down) that holds text a reader would
    /// want: a non-empty string under a key such as `text`, `delta` or `content`.
    /// Unknown events and fields are checked with it, so text in a shape this version
    /// does not know is reported instead of silently dropped.
    ///
    /// - Complexity: O(n) in the members looked at.
    func textBearingKey(depth: Int = 2) -> String? {
        guard kind == .object || kind == .array, depth > 0 else { return nil }
        let textKeys: Set<String> = ["text", "delta", "content", "thinking", "reasoning", "partial_json", "arguments",
                                     "input", "transcript", "refusal", "summary"]
        if kind == .array {
            for element in elements { if let key = element.textBearingKey(depth: depth - 1) { return key } }
            return nil
        }
        for (key, value) in members {
            if textKeys.contains(key), let s = value.string, !s.isEmpty { return key }
            if let inner = value.textBearingKey(depth: depth - 1) { return key + "." + inner }
        }
        return nil
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
