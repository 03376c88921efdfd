/// Decodes the Anthropic Messages streaming protocol.
///
/// Events: `message_start`, `content_block_start` (text, thinking,
/// redacted_thinking, tool_use, server_tool_use, mcp_tool_use (named
/// `server.tool`), tool results (`*_tool_result`, `mcp_tool_result`: a
/// ``ContentBlockKind/toolResult(toolUseID:type:)`` block whose text is a summary of
/// the result) and unknown block types),
/// `content_block_delta` (`text_delta`, `thinking_delta`, `signature_delta`,
/// `input_json_delta`, `citations_delta`, unknown delta types),
/// `content_block_stop` (with the assembled block), `message_delta`,
/// `message_stop`, `ping`, `error`, and unknown event types as ``StreamEvent/unknown(type:)``.
struct AnthropicDecoder: StreamEventDecoder, Sendable {
    private var json = JSONReader()
    private var blocks = BlockAssembler()
    private var scratch: [UInt8] = []
    /// Inputs that came whole with a tool block's start, used if no delta brings one.
    private var startInputs: [(index: Int, json: String)] = []
    private(set) var isComplete = false

    /// `assemblesText` false: ``StreamEvent/blockStop(_:)`` carries no text (and tool
    /// input only up to 4 KiB), so memory stays bounded however long the answer is.
    init(assemblesText: Bool = true) {
        blocks.assemblesText = assemblesText
    }

    mutating func decode(_ event: SSEEvent, emit: (StreamEvent) -> Void, diagnose: (StreamDiagnostic) -> Void) {
        guard let root = json.parseEventObject(event, diagnose: diagnose) else { return }
        // A text delta of the usual shape, read off the tape (most events are these); any
        // other event or shape goes the general way below, which reads the same fields.
        let textDelta: (index: Int, text: Int)? = json.withTape { tape in
            guard let type = tape.member(0, "type"), tape.isString(type, "content_block_delta"),
                  let index = tape.member(0, "index"), let delta = tape.member(0, "delta"), tape.isObject(delta),
                  let deltaType = tape.member(delta, "type"), tape.isString(deltaType, "text_delta"),
                  let text = tape.member(delta, "text") else { return nil }
            return (index, text)
        }
        if let textDelta, let index = JSONValue(reader: json, index: textDelta.index).int,
           let text = JSONValue(reader: json, index: textDelta.text).string {
            blocks.add(index, .text, text)
            emit(.delta(index: index, kind: .text, text: text))
            return
        }
        // The JSON "type" is authoritative; the SSE event name is the fallback.
        let typeValue = root["type"]
        // Deltas of other kinds, or text deltas written unusually (escaped names, a
        // missing or mistyped field: then diagnosed here).
        if typeValue?.isString("content_block_delta") ?? (event.type == "content_block_delta") {
            guard let index = root["index"]?.int, let delta = root["delta"], delta.kind == .object else {
                diagnose(.malformed(event, "content_block_delta without index or delta"))
                return
            }
            let deltaTypeValue = delta["type"]
            let kind: DeltaKind
            let field: JSONValue?
            if deltaTypeValue?.isString("text_delta") == true {
                (kind, field) = (.text, delta["text"])
            } else {
                let deltaType = deltaTypeValue?.string ?? ""
                (kind, field) = switch deltaType {
                case "thinking_delta": (.thinking, delta["thinking"])
                case "signature_delta": (.signature, delta["signature"])
                case "input_json_delta": (.toolInput, delta["partial_json"])
                case "citations_delta": (.citations, delta["citation"])
                default: (.unknown(type: deltaType), nil)
                }
            }
            let text: String
            if case .citations = kind {
                text = field?.sourceText ?? "null"
            } else if case .unknown(let type) = kind {
                // A compaction summary (context management) is no part of the answer:
                // the block is noted, not its text.
                if type != "compaction_delta", let key = delta.textBearingKey() {
                    diagnose(.unhandled(event, "a \(type.isEmpty ? "delta" : type) delta carries text (\(key)) this version does not show"))
                }
                text = ""
            } else {
                guard let value = field?.string else {
                    diagnose(.malformed(event, "\(deltaTypeValue?.string ?? "delta") without its text"))
                    return
                }
                text = value
            }
            blocks.add(index, kind, text)
            emit(.delta(index: index, kind: kind, text: text))
            return
        }
        let type = typeValue?.string ?? event.type
        switch type {
        case "message_start":
            let message = root["message"]
            emit(.messageStart(id: message?["id"]?.string, model: message?["model"]?.string,
                               usage: Self.usage(message?["usage"])))
        case "content_block_start":
            guard let index = root["index"]?.int, let block = root["content_block"], block.kind == .object else {
                diagnose(.malformed(event, "content_block_start without index or content_block"))
                return
            }
            let blockType = block["type"]?.string ?? ""
            let kind: ContentBlockKind = switch blockType {
            case "text": .text
            case "thinking": .thinking
            case "redacted_thinking": .redactedThinking
            case "tool_use": .toolUse(id: block["id"]?.string ?? "", name: block["name"]?.string ?? "")
            case "server_tool_use", "mcp_tool_use":
                .serverToolUse(id: block["id"]?.string ?? "", name: Self.toolName(block))
            case _ where block["tool_use_id"] != nil || blockType.hasSuffix("_tool_result"):
                .toolResult(toolUseID: block["tool_use_id"]?.string ?? "", type: blockType)
            default: .unknown(type: blockType)
            }
            blocks.start(index, kind)
            emit(.blockStart(index: index, kind: kind))
            switch kind {
            case .toolUse, .serverToolUse:
                // The input streams as input_json_delta; a start that carries it whole
                // (non-empty) is the input when no delta comes.
                if let input = block["input"], input.kind == .object, !input.members.isEmpty {
                    startInputs.append((index, input.sourceText))
                }
            case .toolResult:
                var summary = ToolResultSummary.summary(block["content"])
                if block["is_error"]?.bool == true { summary = "error: " + summary }
                blocks.setSummary(index, summary)
            default:
                break
            }
            // A start may carry initial text (always "" in practice).
            if case .text = kind, let text = block["text"]?.string, !text.isEmpty {
                blocks.add(index, .text, text)
                emit(.delta(index: index, kind: .text, text: text))
            }
        case "content_block_stop":
            guard let index = root["index"]?.int else {
                diagnose(.malformed(event, "content_block_stop without index"))
                return
            }
            if let k = startInputs.firstIndex(where: { $0.index == index }) {
                blocks.fillInput(index, startInputs.remove(at: k).json)
            }
            emit(.blockStop(blocks.stop(index) ?? ContentBlock(index: index, kind: .text)))
        case "message_delta":
            let delta = root["delta"]
            emit(.messageDelta(stopReason: delta?["stop_reason"]?.string, stopSequence: delta?["stop_sequence"]?.string,
                               usage: Self.usage(root["usage"])))
        case "message_stop":
            for block in blocks.stopAll() { emit(.blockStop(block)) }
            isComplete = true
            emit(.messageStop)
        case "ping":
            emit(.ping)
        case "error":
            let error = root["error"]
            emit(.error(type: error?["type"]?.string ?? "error", message: error?["message"]?.string ?? event.dataString))
        default:
            if let key = root.textBearingKey() {
                diagnose(.unhandled(event, "an event of type \(type) carries text (\(key)) this version does not show"))
            }
            emit(.unknown(type: type))
        }
    }

    mutating func finish(emit: (StreamEvent) -> Void) {
        guard !isComplete else { return }
        for block in blocks.stopAll(complete: false) { emit(.blockStop(block)) }
    }

    /// An MCP tool is named with its server (`server.tool`), other tools by name.
    static func toolName(_ block: JSONValue) -> String {
        let name = block["name"]?.string ?? ""
        guard let server = block["server_name"]?.string, !server.isEmpty else { return name }
        return server + "." + name
    }

    static func usage(_ value: JSONValue?) -> Usage {
        Usage(inputTokens: value?["input_tokens"]?.int, outputTokens: value?["output_tokens"]?.int)
    }
}
