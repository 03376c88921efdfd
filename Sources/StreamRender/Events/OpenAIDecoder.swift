/// Decodes OpenAI streams: Chat Completions chunks and the Responses API events,
/// told apart per event (Responses events have a `type` starting `response.`).
///
/// Chat Completions: `choices[0].delta` `role` (→ ``StreamEvent/messageStart(id:model:usage:)``),
/// `content` (text, block 0), `refusal`, `tool_calls` (assembled by their index;
/// tool call *i* is block *i + 1*), `finish_reason` (→ message delta, blocks
/// stopped), `usage`, and the `data: [DONE]` terminator (→ ``StreamEvent/messageStop``).
///
/// Responses: `response.created`, `response.output_text.delta`,
/// `response.refusal.delta`, `response.function_call_arguments.delta`,
/// `response.completed` (terminal), `response.failed` / `response.incomplete`
/// and `error`; other types pass on as unknown.
public struct OpenAIDecoder: StreamEventDecoder, Sendable {
    private var json = JSONReader()
    private var blocks = BlockAssembler()
    private var started = false
    private var finished = false
    private var stopReason: String?
    private var toolBlocks: [Int: Int] = [:]  // Responses output_index → block index
    public private(set) var isComplete = false

    /// `assemblesText` false: ``StreamEvent/blockStop(_:)`` carries no text (and tool
    /// input only up to 4 KiB), so memory stays bounded however long the answer is.
    public init(assemblesText: Bool = true) {
        blocks.assemblesText = assemblesText
    }

    public mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        if event.data == Array("[DONE]".utf8) {
            finishBlocks(emit)
            isComplete = true
            emit(.messageStop)
            return
        }
        guard let root = json.parseEventObject(event, diagnose: diagnose) else { return }
        if let type = root["type"]?.string, type.hasPrefix("response.") || type == "error" {
            decodeResponses(type, root, event, emit: emit, diagnose: diagnose)
            return
        }
        if let error = root["error"], error.kind == .object {
            emit(.error(type: error["type"]?.string ?? error["code"]?.string ?? "error",
                        message: error["message"]?.string ?? error.sourceText))
            return
        }
        decodeChatChunk(root, event, emit: emit, diagnose: diagnose)
    }

    private mutating func decodeChatChunk(_ root: JSONValue, _ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        if !started {
            started = true
            emit(.messageStart(id: root["id"]?.string, model: root["model"]?.string, usage: Usage()))
        }
        guard let choices = root["choices"], choices.kind == .array else {
            if let usage = root["usage"], usage.kind == .object {
                emit(.messageDelta(stopReason: nil, stopSequence: nil, usage: Self.usage(usage)))
                return
            }
            diagnose(.malformed(event, "chat.completion.chunk without choices"))
            return
        }
        for choice in choices.elements where (choice["index"]?.int ?? 0) == 0 {
            if let delta = choice["delta"], delta.kind == .object {
                if let content = delta["content"]?.string, !content.isEmpty {
                    ensureBlock(0, .text, emit)
                    blocks.add(0, .text, content)
                    emit(.delta(index: 0, kind: .text, text: content))
                }
                if let refusal = delta["refusal"]?.string, !refusal.isEmpty {
                    ensureBlock(0, .text, emit)
                    blocks.add(0, .refusal, refusal)
                    emit(.delta(index: 0, kind: .refusal, text: refusal))
                }
                if let calls = delta["tool_calls"], calls.kind == .array {
                    for call in calls.elements {
                        let index = (call["index"]?.int ?? 0) + 1
                        let function = call["function"]
                        if blocks.block(index) == nil {
                            ensureBlock(index, .toolUse(id: call["id"]?.string ?? "", name: function?["name"]?.string ?? ""), emit)
                        }
                        if let arguments = function?["arguments"]?.string, !arguments.isEmpty {
                            blocks.add(index, .toolInput, arguments)
                            emit(.delta(index: index, kind: .toolInput, text: arguments))
                        }
                    }
                }
            }
            if let reason = choice["finish_reason"]?.string {
                stopReason = reason
                finishBlocks(emit)
                emit(.messageDelta(stopReason: reason, stopSequence: nil, usage: Self.usage(root["usage"])))
            }
        }
        if choices.elements.isEmpty, let usage = root["usage"], usage.kind == .object {
            emit(.messageDelta(stopReason: nil, stopSequence: nil, usage: Self.usage(usage)))
        }
    }

    private mutating func decodeResponses(_ type: String, _ root: JSONValue, _ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        switch type {
        case "response.created":
            started = true
            let response = root["response"]
            emit(.messageStart(id: response?["id"]?.string, model: response?["model"]?.string, usage: Usage()))
        case "response.output_text.delta", "response.refusal.delta":
            guard let text = root["delta"]?.string else {
                diagnose(.malformed(event, "\(type) without delta"))
                return
            }
            let kind: DeltaKind = type == "response.output_text.delta" ? .text : .refusal
            ensureBlock(0, .text, emit)
            blocks.add(0, kind, text)
            emit(.delta(index: 0, kind: kind, text: text))
        case "response.output_item.added":
            if let item = root["item"], item["type"]?.string == "function_call" {
                let index = (root["output_index"]?.int ?? 0) + 1
                toolBlocks[root["output_index"]?.int ?? 0] = index
                ensureBlock(index, .toolUse(id: item["call_id"]?.string ?? item["id"]?.string ?? "", name: item["name"]?.string ?? ""), emit)
            } else {
                emit(.unknown(type: type))
            }
        case "response.function_call_arguments.delta":
            let index = toolBlocks[root["output_index"]?.int ?? 0] ?? ((root["output_index"]?.int ?? 0) + 1)
            let text = root["delta"]?.string ?? ""
            blocks.add(index, .toolInput, text)
            emit(.delta(index: index, kind: .toolInput, text: text))
        case "response.completed", "response.incomplete":
            let response = root["response"]
            let usage = response?["usage"]
            let reason = type == "response.completed" ? (response?["status"]?.string ?? "completed")
                : (response?["incomplete_details"]?["reason"]?.string ?? "incomplete")
            finishBlocks(emit)
            emit(.messageDelta(stopReason: reason, stopSequence: nil, usage: Self.usage(usage)))
            isComplete = true
            emit(.messageStop)
        case "response.failed":
            let error = root["response"]?["error"]
            emit(.error(type: error?["code"]?.string ?? "response.failed", message: error?["message"]?.string ?? "the response failed"))
        case "error":
            emit(.error(type: root["code"]?.string ?? root["error"]?["type"]?.string ?? "error",
                        message: root["message"]?.string ?? root["error"]?["message"]?.string ?? event.dataString))
        default:
            emit(.unknown(type: type))
        }
    }

    private mutating func ensureBlock(_ index: Int, _ kind: ContentBlockKind, _ emit: (StreamEvent) -> Void) {
        if blocks.block(index) == nil {
            blocks.start(index, kind)
            emit(.blockStart(index: index, kind: kind))
        }
    }

    private mutating func finishBlocks(_ emit: (StreamEvent) -> Void) {
        for block in blocks.stopAll() { emit(.blockStop(block)) }
    }

    static func usage(_ value: JSONValue?) -> Usage {
        Usage(inputTokens: value?["prompt_tokens"]?.int ?? value?["input_tokens"]?.int,
              outputTokens: value?["completion_tokens"]?.int ?? value?["output_tokens"]?.int)
    }
}
