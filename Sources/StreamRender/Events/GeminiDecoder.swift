/// Decodes Google Gemini's server-sent events
/// (`POST …/models/{model}:streamGenerateContent?alt=sse`, the Gemini API and Vertex AI):
/// every event's data is a whole `GenerateContentResponse`.
///
/// Mapping, for candidate 0 (other candidates are ignored, as OpenAI's other choices are):
///
/// | Gemini | Events |
/// | --- | --- |
/// | the first response | ``StreamEvent/messageStart(id:model:usage:)`` (`responseId`, `modelVersion`, `promptTokenCount`) |
/// | part `{"text": …}` | a text ``StreamEvent/delta(index:kind:text:)`` |
/// | part `{"thought": true, "text": …}` | a ``DeltaKind/thinking`` delta |
/// | part `{"functionCall": {"name", "args"}}` | a ``ContentBlockKind/toolUse(id:name:)`` block whose input is `args` (`id`: the call's `id` if it has one) |
/// | streamed `functionCall` parts (`willContinue`, `partialArgs`) | one such block once the last part came, its input the arguments rebuilt from their JSON paths |
/// | `executableCode` / `codeExecutionResult` | a `code_execution` tool call and a ``ContentBlockKind/toolResult(toolUseID:type:)`` |
/// | other parts (`inlineData`…) | ``StreamEvent/unknown(type:)`` named after the part's key (reported if it holds text) |
/// | `finishReason` | open blocks stopped, ``StreamEvent/messageDelta(stopReason:stopSequence:usage:)``, ``StreamEvent/messageStop`` (the stream has no other terminal event) |
/// | `usageMetadata` | usage: input `promptTokenCount`, output `candidatesTokenCount` + `thoughtsTokenCount` (thinking is output, as Anthropic counts it) |
/// | `promptFeedback.blockReason` without candidates | ``StreamEvent/error(type:message:)`` of that type (the prompt was refused; nothing will come) |
/// | `{"error": {"code", "message", "status"}}` | ``StreamEvent/error(type:message:)`` with type `status` (e.g. `RESOURCE_EXHAUSTED`) |
///
/// Runs of text and of thinking are blocks numbered in arrival order (see
/// `SequentialBlocks`); `thoughtSignature`s are not passed on.
struct GeminiDecoder: StreamEventDecoder, Sendable {
    private var json = JSONReader()
    private var blocks: SequentialBlocks
    private var started = false
    private var usage = Usage()
    /// A function call whose arguments are still streaming.
    private var streamedCall: (id: String, name: String, arguments: PartialArguments)?
    private(set) var isComplete = false

    /// `assemblesText` false: ``StreamEvent/blockStop(_:)`` carries no text (and tool
    /// input only up to 4 KiB), so memory stays bounded however long the answer is.
    ///
    /// - Complexity: O(1).
    init(assemblesText: Bool = true) {
        blocks = SequentialBlocks(assemblesText: assemblesText)
    }

    /// Decodes one event: a `GenerateContentResponse` or an error object.
    ///
    /// - Complexity: O(n) in the event's data bytes.
    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        guard let root = json.parseEventObject(event, diagnose: diagnose) else { return }
        if let error = root["error"], error.kind == .object {
            emit(Self.error(error))
            return
        }
        let reported = root["usageMetadata"].map(Self.usage)
        if !started {
            started = true
            emit(.messageStart(id: root["responseId"]?.string, model: root["modelVersion"]?.string,
                               usage: Usage(inputTokens: reported?.inputTokens)))
        }
        if let reported { usage.merge(reported) }
        guard let candidates = root["candidates"], candidates.kind == .array else {
            if let reason = root["promptFeedback"]?["blockReason"]?.string {
                blocks.stop(emit)
                emit(.error(type: reason, message: "the prompt was blocked (promptFeedback.blockReason \(reason))"))
            } else if let reported {
                emit(.messageDelta(stopReason: nil, stopSequence: nil, usage: reported))
            } else {
                diagnose(.malformed(event, "a Gemini response without candidates"))
            }
            return
        }
        for candidate in candidates.elements where (candidate["index"]?.int ?? 0) == 0 {
            if let parts = candidate["content"]?["parts"], parts.kind == .array {
                for part in parts.elements { decodePart(part, event, emit, diagnose) }
            }
            if let reason = candidate["finishReason"]?.string {
                finishStreamedCall(emit)
                blocks.stop(emit)
                emit(.messageDelta(stopReason: reason, stopSequence: nil, usage: usage))
                if !isComplete {
                    isComplete = true
                    emit(.messageStop)
                }
            }
        }
    }

    private mutating func decodePart(_ part: JSONValue, _ event: SSEEvent, _ emit: (StreamEvent) -> Void,
                                     _ diagnose: (StreamDiagnostic) -> Void) {
        if let call = part["functionCall"], call.kind == .object {
            decodeCall(call, emit)
            return
        }
        finishStreamedCall(emit)
        if let text = part["text"]?.string {
            if !text.isEmpty { blocks.add(part["thought"]?.bool == true ? .thinking : .text, text, emit) }
        } else if part.kind == .object {
            let key = part.members.first { $0.key != "thoughtSignature" && $0.key != "thought" }?.key ?? "part"
            if let code = part["executableCode"]?["code"]?.string {
                blocks.toolCall(id: "", name: "code_execution", inputJSON: code, emit)
            } else if let result = part["codeExecutionResult"] {
                blocks.toolResult(type: "code_execution_result", summary: result["output"]?.string ?? result.sourceText, emit)
            } else if key != "part", key != "inlineData", key != "fileData", let inner = part.textBearingKey() {
                diagnose(.unhandled(event, "a part of kind \(key) holds text (\(inner)) this version does not show"))
            } else {
                emit(.unknown(type: key))
            }
        }
    }

    /// A function call: whole (`args`), or streamed (Vertex / Gemini 3 with
    /// `streamFunctionCallArguments`: the name with `willContinue`, then parts holding
    /// `partialArgs`, then one whose `willContinue` is absent or false).
    private mutating func decodeCall(_ call: JSONValue, _ emit: (StreamEvent) -> Void) {
        let continues = call["willContinue"]?.bool == true
        let partial = call["partialArgs"]
        if streamedCall == nil {
            guard continues || partial != nil else {
                blocks.toolCall(id: call["id"]?.string ?? "", name: call["name"]?.string ?? "",
                                inputJSON: call["args"]?.sourceText ?? "{}", emit)
                return
            }
            streamedCall = (call["id"]?.string ?? "", call["name"]?.string ?? "", PartialArguments())
        }
        if let name = call["name"]?.string, !name.isEmpty, streamedCall!.name.isEmpty { streamedCall!.name = name }
        if let partial, partial.kind == .array {
            for piece in partial.elements { streamedCall!.arguments.add(piece) }
        }
        if let args = call["args"], args.kind == .object, !args.members.isEmpty { streamedCall!.arguments.whole = args.sourceText }
        if !continues { finishStreamedCall(emit) }
    }

    /// Ends a streamed call (its last part came, or something else did).
    private mutating func finishStreamedCall(_ emit: (StreamEvent) -> Void, complete: Bool = true) {
        guard let call = streamedCall else { return }
        streamedCall = nil
        blocks.toolCall(id: call.id, name: call.name, inputJSON: call.arguments.json, complete: complete, emit)
    }

    mutating func finish(emit: (StreamEvent) -> Void) {
        finishStreamedCall(emit, complete: false)
    }

    static func error(_ error: JSONValue) -> StreamEvent {
        .error(type: error["status"]?.string ?? error["code"]?.numberText ?? "error",
               message: error["message"]?.string ?? error.sourceText)
    }

    static func usage(_ value: JSONValue) -> Usage {
        let candidates = value["candidatesTokenCount"]?.int, thoughts = value["thoughtsTokenCount"]?.int
        let output: Int? = candidates == nil && thoughts == nil ? nil : (candidates ?? 0) + (thoughts ?? 0)
        return Usage(inputTokens: value["promptTokenCount"]?.int, outputTokens: output)
    }
}
