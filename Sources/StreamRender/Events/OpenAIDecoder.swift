/// Decodes OpenAI streams and the OpenAI-compatible ones: Chat Completions chunks,
/// legacy Completions chunks and the Responses API events, told apart per event
/// (Responses events have a `type` starting `response.`).
///
/// Chat Completions (`choices[0]`; other choices are not shown): `delta.role`
/// (→ ``StreamEvent/messageStart(id:model:usage:)``); `delta.content` as a string,
/// or as an array of parts (Mistral: `{"type": "text"}` parts are text,
/// `{"type": "thinking"}` parts thinking, text in other parts shown as text); the
/// reasoning fields of compatible providers as thinking: `reasoning_content`
/// (DeepSeek, Qwen, Moonshot, xAI, Z.ai), `reasoning` (Groq, OpenRouter) and
/// `reasoning_details` (OpenRouter; used when neither of the others came);
/// `refusal`; `tool_calls` (assembled by their index; tool call *i* is block
/// *i + 1*) and the legacy `function_call`; Groq's `executed_tools` (provider tools);
/// `finish_reason` (→ message delta, blocks stopped; the stream is complete, as
/// providers that never send `[DONE]` end it there); `usage`; and the `data: [DONE]`
/// terminator (→ ``StreamEvent/messageStop``). Legacy Completions chunks (`choices[0].text`) are
/// text. A delta field this version does not know that holds text is reported
/// (``StreamDiagnostic/Kind/unhandledContent``), never silently dropped.
///
/// Responses: every output item is a block numbered by its `output_index`:
/// `message` items are text (`response.output_text.delta`, `response.refusal.delta`),
/// `reasoning` items thinking (`response.reasoning_summary_text.delta`,
/// `response.reasoning_text.delta`), and tool calls of every kind are tool blocks:
/// `function_call` (a client tool) and `custom_tool_call`, `mcp_call`,
/// `mcp_approval_request`, `web_search_call`, `file_search_call`,
/// `code_interpreter_call`, `image_generation_call`, `computer_call`,
/// `local_shell_call` (provider tools, named by their `name` or kind), their input
/// from `…arguments.delta` / `…input.delta` / `…code.delta` events, or from the item
/// when it is done. `response.completed` and `response.incomplete` are terminal;
/// `response.failed` and `error` are errors. Other events pass on as unknown, except
/// an unknown `….delta` event, which is reported: its text is not shown.
struct OpenAIDecoder: StreamEventDecoder, Sendable {
    private var json = JSONReader()
    private var blocks = BlockAssembler()
    private var started = false
    private var stopReason: String?
    /// Chat: the open thinking block (reasoning fields), before the text.
    private var thinkingOpen = false
    private(set) var isComplete = false

    /// Chat: the thinking block's index (text is 0, tool call *i* is *i + 1*).
    static let chatThinkingIndex = -1
    /// Chat: Groq's executed tool *i* is block *base + i*.
    static let executedToolBase = 1 << 20
    private var executedTools: Set<Int> = []
    /// Responses: output items that received text or thinking deltas (an item that got
    /// none shows the text it holds when it is done).
    private var itemsWithDeltas: Set<Int> = []

    /// `assemblesText` false: ``StreamEvent/blockStop(_:)`` carries no text (and tool
    /// input only up to 4 KiB), so memory stays bounded however long the answer is.
    init(assemblesText: Bool = true) {
        blocks.assemblesText = assemblesText
    }

    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
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
            emit(.error(type: error["type"]?.string ?? error["code"]?.string ?? error["code"]?.numberText ?? "error",
                        message: error["message"]?.string ?? error.sourceText))
            return
        }
        decodeChatChunk(root, event, emit: emit, diagnose: diagnose)
    }

    mutating func finish(emit: (StreamEvent) -> Void) {
        guard !isComplete else { return }
        for block in blocks.stopAll(complete: false) { emit(.blockStop(block)) }
    }

    // MARK: - Chat Completions

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
            if let delta = choice["delta"] ?? choice["message"], delta.kind == .object {
                decodeChatDelta(delta, event, emit: emit, diagnose: diagnose)
            } else if let text = choice["text"]?.string, !text.isEmpty {
                text0(text, .text, emit)  // a legacy Completions chunk
            }
            if let reason = choice["finish_reason"]?.string {
                stopReason = reason
                // The answer is whole: many compatible providers (and proxies) close the
                // stream here without `[DONE]`.
                isComplete = true
                finishBlocks(emit)
                emit(.messageDelta(stopReason: reason, stopSequence: nil, usage: Self.usage(root["usage"])))
            }
        }
        if choices.elements.isEmpty, let usage = root["usage"], usage.kind == .object {
            emit(.messageDelta(stopReason: nil, stopSequence: nil, usage: Self.usage(usage)))
        }
    }

    /// Fields of a chat delta that carry nothing to show, or are shown through others.
    private static let quietDeltaFields: Set<String> = [
        "role", "content", "refusal", "tool_calls", "function_call", "reasoning_content", "reasoning",
        "reasoning_details", "annotations", "audio", "name", "tool_call_id", "id", "type", "index",
        "reasoning_signature", "signature", "obfuscation", "channel", "executed_tools",
    ]

    private mutating func decodeChatDelta(_ delta: JSONValue, _ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        // Reasoning first: providers send it before the answer, sometimes in the same chunk.
        if let thinking = delta["reasoning_content"]?.string ?? delta["reasoning"]?.string {
            if !thinking.isEmpty { chatThinking(thinking, emit) }
        } else if let details = delta["reasoning_details"], details.kind == .array {
            for detail in details.elements {
                if let text = detail["text"]?.string ?? detail["summary"]?.string, !text.isEmpty { chatThinking(text, emit) }
            }
        }
        if let content = delta["content"] {
            switch content.kind {
            case .string:
                if let text = content.string, !text.isEmpty { text0(text, .text, emit) }
            case .array:
                for part in content.elements { chatContentPart(part, event, emit: emit, diagnose: diagnose) }
            case .null:
                break
            default:
                diagnose(.unhandled(event, "delta.content is neither text nor a list of parts: \(content.sourceText.prefix(80))"))
            }
        }
        if let refusal = delta["refusal"]?.string, !refusal.isEmpty { text0(refusal, .refusal, emit) }
        if let calls = delta["tool_calls"], calls.kind == .array {
            for call in calls.elements {
                chatToolCall(index: (call["index"]?.int ?? 0) + 1, id: call["id"]?.string, function: call["function"], emit)
            }
        }
        if let call = delta["function_call"], call.kind == .object {
            chatToolCall(index: 1, id: nil, function: call, emit)  // the legacy functions API: one call
        }
        if let executed = delta["executed_tools"], executed.kind == .array {
            // Groq's server-side tools (search, code): each shown once, when first seen.
            for tool in executed.elements {
                let index = Self.executedToolBase + (tool["index"]?.int ?? 0)
                guard !executedTools.contains(index) else { continue }
                executedTools.insert(index)
                closeChatThinking(emit)
                let kind = ContentBlockKind.serverToolUse(id: "", name: tool["type"]?.string ?? tool["name"]?.string ?? "tool")
                ensureBlock(index, kind, emit)
                let input = tool["arguments"]?.string ?? tool["arguments"]?.sourceText ?? ""
                if !input.isEmpty {
                    blocks.add(index, .toolInput, input)
                    emit(.delta(index: index, kind: .toolInput, text: input))
                }
                if let block = blocks.stop(index) { emit(.blockStop(block)) }
            }
        }
        for (key, value) in delta.members where !Self.quietDeltaFields.contains(key) {
            if let text = value.string, !text.isEmpty {
                diagnose(.unhandled(event, "delta.\(key) holds text (\(text.utf8.count) bytes) this version does not show"))
            } else if let inner = value.textBearingKey() {
                diagnose(.unhandled(event, "delta.\(key).\(inner) holds text this version does not show"))
            }
        }
    }

    /// A part of an array `content` (Mistral): text, thinking (its own text parts), or
    /// another kind whose text is shown rather than lost.
    private mutating func chatContentPart(_ part: JSONValue, _ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        if let text = part.string {
            if !text.isEmpty { text0(text, .text, emit) }
            return
        }
        let type = part["type"]?.string ?? ""
        if type == "thinking" || type == "reasoning" {
            let inner = part["thinking"] ?? part["reasoning"] ?? part["text"]
            for text in Self.texts(inner) where !text.isEmpty { chatThinking(text, emit) }
            return
        }
        if let text = part["text"]?.string {
            if !text.isEmpty { text0(text, .text, emit) }
        } else if type != "image_url" && type != "reference", let key = part.textBearingKey() {
            diagnose(.unhandled(event, "a content part of type \(type.isEmpty ? "?" : type) holds text (\(key)) this version does not show"))
        }
    }

    /// The strings of a value that is a string, or parts with `text` (Mistral's thinking).
    private static func texts(_ value: JSONValue?) -> [String] {
        guard let value else { return [] }
        if let s = value.string { return [s] }
        if value.kind == .array { return value.elements.flatMap { $0.string.map { [$0] } ?? texts($0["text"]) } }
        return []
    }

    private mutating func chatThinking(_ text: String, _ emit: (StreamEvent) -> Void) {
        let index = Self.chatThinkingIndex
        if !thinkingOpen {
            thinkingOpen = true
            ensureBlock(index, .thinking, emit)
        }
        blocks.add(index, .thinking, text)
        emit(.delta(index: index, kind: .thinking, text: text))
    }

    /// The thinking block ends where the answer (text or a tool call) begins.
    private mutating func closeChatThinking(_ emit: (StreamEvent) -> Void) {
        guard thinkingOpen else { return }
        thinkingOpen = false
        if let block = blocks.stop(Self.chatThinkingIndex) { emit(.blockStop(block)) }
    }

    private mutating func text0(_ text: String, _ kind: DeltaKind, _ emit: (StreamEvent) -> Void) {
        closeChatThinking(emit)
        ensureBlock(0, .text, emit)
        blocks.add(0, kind, text)
        emit(.delta(index: 0, kind: kind, text: text))
    }

    private mutating func chatToolCall(index: Int, id: String?, function: JSONValue?, _ emit: (StreamEvent) -> Void) {
        closeChatThinking(emit)
        if blocks.block(index) == nil {
            ensureBlock(index, .toolUse(id: id ?? "", name: function?["name"]?.string ?? ""), emit)
        }
        // Arguments are a JSON text in pieces; some providers send the object itself.
        guard let arguments = function?["arguments"] else { return }
        let text = arguments.string ?? (arguments.kind == .object ? arguments.sourceText : "")
        if !text.isEmpty {
            blocks.add(index, .toolInput, text)
            emit(.delta(index: index, kind: .toolInput, text: text))
        }
    }

    // MARK: - Responses

    /// Output item types that are tool calls, and the event suffixes whose `delta` is their input.
    private static let toolItemTypes: Set<String> = [
        "function_call", "custom_tool_call", "mcp_call", "mcp_approval_request", "web_search_call", "file_search_call",
        "code_interpreter_call", "image_generation_call", "computer_call", "local_shell_call", "shell_call",
        "apply_patch_call", "tool_search_call",
    ]

    private mutating func decodeResponses(_ type: String, _ root: JSONValue, _ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        let outputIndex = root["output_index"]?.int ?? 0
        switch type {
        case "response.created":
            started = true
            let response = root["response"]
            emit(.messageStart(id: response?["id"]?.string, model: response?["model"]?.string, usage: Usage()))
        case "response.output_text.delta", "response.refusal.delta", "response.reasoning_summary_text.delta",
             "response.reasoning_text.delta":
            guard let text = root["delta"]?.string else {
                diagnose(.malformed(event, "\(type) without delta"))
                return
            }
            let kind: DeltaKind = switch type {
            case "response.output_text.delta": .text
            case "response.refusal.delta": .refusal
            default: .thinking
            }
            ensureBlock(outputIndex, kind == .thinking ? .thinking : .text, emit)
            itemsWithDeltas.insert(outputIndex)
            blocks.add(outputIndex, kind, text)
            emit(.delta(index: outputIndex, kind: kind, text: text))
        case "response.reasoning_summary_part.added":
            // Summary parts are paragraphs of one thinking block.
            if (root["summary_index"]?.int ?? 0) > 0, blocks.block(outputIndex) != nil {
                blocks.add(outputIndex, .thinking, "\n\n")
                emit(.delta(index: outputIndex, kind: .thinking, text: "\n\n"))
            }
        case "response.output_item.added":
            guard let item = root["item"], let itemType = item["type"]?.string else { return emit(.unknown(type: type)) }
            if itemType == "message" {
                ensureBlock(outputIndex, .text, emit)
            } else if itemType == "reasoning" {
                ensureBlock(outputIndex, .thinking, emit)
            } else if Self.toolItemTypes.contains(itemType) {
                ensureBlock(outputIndex, Self.toolKind(item, itemType), emit)
            } else {
                emit(.unknown(type: type))
            }
        case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta",
             "response.mcp_call_arguments.delta", "response.mcp_call.arguments.delta",
             "response.code_interpreter_call_code.delta", "response.apply_patch_call_operation_diff.delta":
            let text = root["delta"]?.string ?? ""
            if blocks.block(outputIndex) == nil { ensureBlock(outputIndex, .toolUse(id: "", name: ""), emit) }
            blocks.add(outputIndex, .toolInput, text)
            emit(.delta(index: outputIndex, kind: .toolInput, text: text))
        case "response.output_item.done":
            guard let item = root["item"], let itemType = item["type"]?.string else { return emit(.unknown(type: type)) }
            if Self.toolItemTypes.contains(itemType) {
                if blocks.block(outputIndex) == nil { ensureBlock(outputIndex, Self.toolKind(item, itemType), emit) }
                if let input = Self.toolInput(item) { blocks.fillInput(outputIndex, input) }
            } else if (itemType == "message" || itemType == "reasoning") && !itemsWithDeltas.contains(outputIndex) {
                // No deltas came for it: the text the finished item holds is shown.
                let thinking = itemType == "reasoning"
                var parts = (item[thinking ? "summary" : "content"]?.elements ?? [])
                if thinking { parts += item["content"]?.elements ?? [] }
                for (k, part) in parts.enumerated() {
                    guard let text = part["text"]?.string ?? part["refusal"]?.string, !text.isEmpty else { continue }
                    let kind: DeltaKind = thinking ? .thinking : part["type"]?.string == "refusal" ? .refusal : .text
                    ensureBlock(outputIndex, thinking ? .thinking : .text, emit)
                    let piece = thinking && k > 0 ? "\n\n" + text : text
                    blocks.add(outputIndex, kind, piece)
                    emit(.delta(index: outputIndex, kind: kind, text: piece))
                }
            }
            if let block = blocks.stop(outputIndex) { emit(.blockStop(block)) }
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
            emit(.error(type: root["code"]?.string ?? root["error"]?["type"]?.string ?? root["error"]?["code"]?.string ?? "error",
                        message: root["message"]?.string ?? root["error"]?["message"]?.string ?? event.dataString))
        default:
            if type.hasSuffix(".delta"), let key = root.textBearingKey() {
                diagnose(.unhandled(event, "an event of type \(type) carries text (\(key)) this version does not show"))
            }
            emit(.unknown(type: type))
        }
    }

    /// A Responses tool item as a block: client function calls are ``ContentBlockKind/toolUse(id:name:)``;
    /// the others run at the provider (MCP servers, custom tools, search...).
    private static func toolKind(_ item: JSONValue, _ itemType: String) -> ContentBlockKind {
        let id = item["call_id"]?.string ?? item["id"]?.string ?? ""
        var name = item["name"]?.string ?? String(itemType.dropLast(itemType.hasSuffix("_call") ? 5 : 0))
        if let server = item["server_label"]?.string, !server.isEmpty { name = server + "." + name }
        return itemType == "function_call" ? .toolUse(id: id, name: name) : .serverToolUse(id: id, name: name)
    }

    /// A finished tool item's input: its arguments, input, code, queries or action.
    private static func toolInput(_ item: JSONValue) -> String? {
        for value in [item["arguments"], item["input"], item["code"], item["queries"], item["action"], item["operation"]] {
            guard let value else { continue }
            if let s = value.string { if !s.isEmpty { return s } } else if !value.isNull { return value.sourceText }
        }
        return nil
    }

    private mutating func ensureBlock(_ index: Int, _ kind: ContentBlockKind, _ emit: (StreamEvent) -> Void) {
        if blocks.block(index) == nil {
            blocks.start(index, kind)
            emit(.blockStart(index: index, kind: kind))
        }
    }

    private mutating func finishBlocks(_ emit: (StreamEvent) -> Void) {
        thinkingOpen = false
        for block in blocks.stopAll() { emit(.blockStop(block)) }
    }

    static func usage(_ value: JSONValue?) -> Usage {
        Usage(inputTokens: value?["prompt_tokens"]?.int ?? value?["input_tokens"]?.int,
              outputTokens: value?["completion_tokens"]?.int ?? value?["output_tokens"]?.int)
    }
}
