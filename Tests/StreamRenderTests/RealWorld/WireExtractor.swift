import Foundation

// An oracle for the recorded streams under Resources/real/streams: a small extractor per wire
// format, written from the providers' documentation and the recordings themselves, apart from
// (and without reading) the project's decoders. It parses SSE and NDJSON itself and reads JSON
// with JSONSerialization only.
//
// Conventions (the same for every format):
// - textBlocks: text pieces in arrival order. A new block starts where the provider starts a
//   text block / message output item / text part after a non-text block (tool call, tool result,
//   thinking, reasoning item, ...); consecutive text blocks (e.g. Anthropic text blocks split by
//   citations) stay in one block. Chat-style formats without block markers (OpenAI chat,
//   compatible providers, Gemini, Ollama) start a new block when text follows thinking or a
//   tool call. Refusal text (OpenAI chat `delta.refusal`, Responses `response.refusal.delta`)
//   counts as text. Empty strings never change state; blocks that end up empty are dropped.
// - thinking: one entry per thinking block (Anthropic thinking block, Responses reasoning summary
//   part or reasoning content part, a run of reasoning deltas / thought parts elsewhere). Redacted
//   thinking carries no text and so gives no entry (it still ends a text block). Empty entries are
//   dropped.
// - toolCalls: every call of any kind (client function, server tool, MCP, custom, code execution,
//   Groq `delta.executed_tools`, Responses `*_call` items, Gemini `executableCode`) with its arguments as the concatenation of the streamed pieces. Where the wire gives the
//   arguments only as a JSON object (Anthropic `input` without any input_json_delta, Gemini `args`
//   and `partialArgs`, Ollama `tool_calls`, Responses built-in calls' `action`), the object is
//   written compactly with sorted keys; where it gives nothing, "".
// - completed: the terminal event was seen (Anthropic `message_stop`; OpenAI chat / completions
//   `data: [DONE]` or a finish_reason on every choice seen; Responses `response.completed` or
//   `response.incomplete`; Gemini a candidate 0 with `finishReason`; Ollama `"done": true`).
// - errors: "type: message" (or "code: message") of every error the stream reports.
// - OpenAI chat / completions and Gemini: only choice / candidate index 0 is read.
// - SSE framing follows the WHATWG event-stream rules: CR, LF and CRLF line ends, `:` comments,
//   `data:` lines joined with "\n", a blank line dispatches; an event left unterminated at the end
//   of the bytes is discarded.

/// What a recorded stream says, read by a small extractor per wire format written apart from the decoders.
struct WireContent: Equatable {
    struct ToolCall: Equatable, CustomStringConvertible {
        var name: String
        var arguments: String
        var description: String { "\(name)(\(arguments))" }
    }
    /// The answer's text pieces in arrival order, grouped into text blocks (a new group starts where the
    /// provider starts a new text block/output item/part run after a non-text block such as a tool call or thinking).
    var textBlocks: [String] = []
    /// Each thinking/reasoning block's text (summary or full), in order.
    var thinking: [String] = []
    /// Every tool call of any kind (client, server, MCP, custom), arguments as the concatenated JSON/text pieces.
    var toolCalls: [ToolCall] = []
    /// The terminal event was seen (as defined for MANIFEST.tsv).
    var completed = false
    /// Error types/messages reported in the stream.
    var errors: [String] = []
}

enum WireExtractor {
    /// `format`: anthropic, openai-chat, openai-responses, gemini, ollama-chat, ollama-generate, completions.
    static func extract(_ bytes: [UInt8], format: String) -> WireContent {
        let b = Builder()
        switch format {
        case "anthropic": anthropic(bytes, b)
        case "openai-chat": chat(bytes, b, legacy: false)
        case "completions": chat(bytes, b, legacy: true)
        case "openai-responses": responses(bytes, b)
        case "gemini": gemini(bytes, b)
        case "ollama-chat", "ollama-generate": ollama(bytes, b)
        default: b.out.errors.append("unknown format \(format)")
        }
        return b.finish()
    }

    // MARK: - framing

    struct SSEEvent { var event: String?; var data: String }

    /// Splits bytes into lines at CR, LF or CRLF (a UTF-8 BOM at the start is skipped).
    static func lines(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var i = start
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || c == 0x0D {
                out.append(String(decoding: bytes[start..<i], as: UTF8.self))
                if c == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { out.append(String(decoding: bytes[start...], as: UTF8.self)) }
        // A final line with no line end is still a line; whether it ends an event is decided by the caller.
        return out
    }

    static func sse(_ bytes: [UInt8]) -> [SSEEvent] {
        var events: [SSEEvent] = []
        var name: String?
        var data: [String] = []
        var hasData = false
        // Only lines followed by a line end take part; a trailing unterminated line can't dispatch anyway.
        for line in lines(bytes) {
            if line.isEmpty {
                if hasData { events.append(SSEEvent(event: name, data: data.joined(separator: "\n"))) }
                name = nil; data = []; hasData = false
                continue
            }
            if line.hasPrefix(":") { continue }
            var field = line
            var value = ""
            if let colon = line.firstIndex(of: ":") {
                field = String(line[..<colon])
                value = String(line[line.index(after: colon)...])
                if value.hasPrefix(" ") { value.removeFirst() }
            }
            switch field {
            case "data": data.append(value); hasData = true
            case "event": name = value
            default: break
            }
        }
        return events  // an event not ended by a blank line is discarded
    }

    static func json(_ s: String) -> [String: Any]? {
        guard let d = s.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: d, options: [.fragmentsAllowed])) as? [String: Any]
    }

    static func serialize(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
              let d = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return "" }
        return String(decoding: d, as: UTF8.self)
    }

    static func errorText(_ e: Any?) -> String {
        if let s = e as? String { return s }
        guard let e = e as? [String: Any] else { return "error" }
        let kind = (e["type"] as? String) ?? (e["status"] as? String) ?? (e["code"].map { "\($0)" }) ?? "error"
        if let m = e["message"] as? String { return "\(kind): \(m)" }
        return kind
    }

    // MARK: - Anthropic Messages

    static func anthropic(_ bytes: [UInt8], _ b: Builder) {
        var blockKind: [Int: String] = [:]
        var blockTool: [Int: Int] = [:]
        var toolHadDelta: Set<Int> = []
        var toolStartInput: [Int: Any] = [:]
        for ev in sse(bytes) {
            guard let o = json(ev.data) else { continue }
            let type = o["type"] as? String
            if type == "error" || ev.event == "error" {
                b.out.errors.append(errorText(o["error"]))
                continue
            }
            switch type {
            case "content_block_start":
                let index = o["index"] as? Int ?? -1
                let block = o["content_block"] as? [String: Any] ?? [:]
                let kind = block["type"] as? String ?? ""
                blockKind[index] = kind
                switch kind {
                case "text":
                    b.beginText()
                    b.appendText(block["text"] as? String ?? "")
                case "thinking":
                    b.beginThinking()
                    b.appendThinking(block["thinking"] as? String ?? "")
                case "redacted_thinking":
                    b.other()
                default:
                    if kind.hasSuffix("tool_use") {  // tool_use, server_tool_use, mcp_tool_use
                        blockTool[index] = b.addTool(name: block["name"] as? String ?? kind)
                        toolStartInput[index] = block["input"]
                    } else {
                        b.other()  // *_tool_result, mcp_tool_result, compaction, ...
                    }
                }
            case "content_block_delta":
                let index = o["index"] as? Int ?? -1
                let delta = o["delta"] as? [String: Any] ?? [:]
                switch delta["type"] as? String {
                case "text_delta":
                    if blockKind[index] == "text" { b.appendText(delta["text"] as? String ?? "") }
                case "thinking_delta":
                    b.appendThinking(delta["thinking"] as? String ?? "")
                case "input_json_delta":
                    if let t = blockTool[index] {
                        toolHadDelta.insert(index)
                        b.appendArguments(t, delta["partial_json"] as? String ?? "")
                    }
                default: break  // signature_delta, citations_delta, compaction deltas...
                }
            case "content_block_stop":
                let index = o["index"] as? Int ?? -1
                if let t = blockTool[index], !toolHadDelta.contains(index),
                   let input = toolStartInput[index] as? [String: Any], !input.isEmpty {
                    b.setArguments(t, serialize(input))
                }
                blockTool[index] = nil
                toolHadDelta.remove(index)
            case "message_stop":
                b.out.completed = true
            default: break
            }
        }
    }

    // MARK: - OpenAI chat completions (and compatible) / legacy completions

    static func chat(_ bytes: [UInt8], _ b: Builder, legacy: Bool) {
        var finish: [Int: Bool] = [:]
        var sawDone = false
        var toolByIndex: [Int: (slot: Int, id: String?)] = [:]
        var executed: [Int: Int] = [:]
        for ev in sse(bytes) {
            if ev.data.trimmingCharacters(in: .whitespaces) == "[DONE]" { sawDone = true; continue }
            guard let o = json(ev.data) else { continue }
            if let e = o["error"], !(e is NSNull) { b.out.errors.append(errorText(e)) }
            for case let c as [String: Any] in (o["choices"] as? [Any] ?? []) {
                let index = c["index"] as? Int ?? 0
                if let r = c["finish_reason"] as? String, !r.isEmpty { finish[index] = true } else if finish[index] == nil { finish[index] = false }
                guard index == 0 else { continue }
                if legacy {
                    b.appendText(c["text"] as? String ?? "")
                    continue
                }
                guard let d = c["delta"] as? [String: Any] else { continue }
                // reasoning: one field per chunk (OpenRouter repeats `reasoning` in `reasoning_details`)
                if let r = d["reasoning_content"] as? String, !r.isEmpty {
                    b.appendThinking(r)
                } else if let r = d["reasoning"] as? String, !r.isEmpty {
                    b.appendThinking(r)
                } else if let details = d["reasoning_details"] as? [Any] {
                    for case let item as [String: Any] in details {
                        if let t = item["text"] as? String { b.appendThinking(t) } else if let t = item["summary"] as? String { b.appendThinking(t) }
                    }
                }
                if let s = d["content"] as? String {
                    b.appendText(s)
                } else if let parts = d["content"] as? [Any] {  // Mistral: [{type:text}|{type:thinking}]
                    for case let p as [String: Any] in parts {
                        switch p["type"] as? String {
                        case "text": b.appendText(p["text"] as? String ?? "")
                        case "thinking":
                            if let s = p["thinking"] as? String { b.appendThinking(s) }
                            for case let t as [String: Any] in (p["thinking"] as? [Any] ?? []) { b.appendThinking(t["text"] as? String ?? "") }
                        default: break
                        }
                    }
                }
                if let s = d["refusal"] as? String { b.appendText(s) }
                for case let t as [String: Any] in (d["tool_calls"] as? [Any] ?? []) {
                    let ti = t["index"] as? Int ?? 0
                    let id = t["id"] as? String
                    let fn = t["function"] as? [String: Any] ?? [:]
                    let name = fn["name"] as? String ?? ""
                    var slot: Int
                    if let known = toolByIndex[ti], id == nil || id!.isEmpty || id == known.id {
                        slot = known.slot
                        if !name.isEmpty, b.out.toolCalls[slot].name.isEmpty { b.out.toolCalls[slot].name = name }
                    } else {
                        slot = b.addTool(name: name)
                        toolByIndex[ti] = (slot, id)
                    }
                    b.appendArguments(slot, fn["arguments"] as? String ?? "")
                }
                // Groq compound models: server-side tools in `delta.executed_tools`, each index sent whole
                // (first with its arguments, again with its output).
                for case let t as [String: Any] in (d["executed_tools"] as? [Any] ?? []) {
                    let ti = t["index"] as? Int ?? 0
                    if executed[ti] == nil { executed[ti] = b.addTool(name: t["type"] as? String ?? "") }
                    if let a = t["arguments"] as? String { b.setArguments(executed[ti]!, a) }
                }
            }
        }
        b.out.completed = sawDone || (!finish.isEmpty && finish.values.allSatisfy { $0 })
    }

    // MARK: - OpenAI Responses

    static func responses(_ bytes: [UInt8], _ b: Builder) {
        var toolByItem: [String: Int] = [:]
        var itemsWithDeltas: Set<String> = []
        var thinkingKey: String?
        func beginToolItem(_ item: [String: Any]) {
            let id = item["id"] as? String ?? UUID().uuidString
            if toolByItem[id] == nil {
                let type = item["type"] as? String ?? ""
                toolByItem[id] = b.addTool(name: (item["name"] as? String) ?? type)
            }
        }
        func thinking(_ key: String, _ s: String) {
            if key != thinkingKey || b.last != .thinking { b.beginThinking(); thinkingKey = key }
            b.appendThinking(s)
        }
        for ev in sse(bytes) {
            guard let o = json(ev.data) else { continue }
            let type = o["type"] as? String ?? ""
            let itemID = o["item_id"] as? String ?? ""
            switch type {
            case "response.output_item.added":
                let item = o["item"] as? [String: Any] ?? [:]
                let kind = item["type"] as? String ?? ""
                if kind == "message" { b.beginText() } else if kind.hasSuffix("_call") { beginToolItem(item) } else { b.other() }
            case "response.output_text.delta", "response.refusal.delta":
                itemsWithDeltas.insert(itemID)
                b.appendText(o["delta"] as? String ?? "")
            case "response.reasoning_summary_text.delta":
                itemsWithDeltas.insert(itemID)
                thinking("\(itemID)/s\(o["summary_index"] as? Int ?? 0)", o["delta"] as? String ?? "")
            case "response.reasoning_text.delta":
                itemsWithDeltas.insert(itemID)
                thinking("\(itemID)/r\(o["content_index"] as? Int ?? 0)", o["delta"] as? String ?? "")
            case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta",
                 "response.mcp_call_arguments.delta", "response.code_interpreter_call_code.delta",
                 "response.apply_patch_call_operation_diff.delta":
                if toolByItem[itemID] == nil { toolByItem[itemID] = b.addTool(name: "") }
                itemsWithDeltas.insert(itemID)
                b.appendArguments(toolByItem[itemID]!, o["delta"] as? String ?? "")
            case "response.output_item.done":
                let item = o["item"] as? [String: Any] ?? [:]
                let kind = item["type"] as? String ?? ""
                let id = item["id"] as? String ?? ""
                if itemsWithDeltas.contains(id) { break }
                if kind == "message" {
                    for case let part as [String: Any] in (item["content"] as? [Any] ?? []) {
                        if let t = part["text"] as? String { b.appendText(t) } else if let t = part["refusal"] as? String { b.appendText(t) }
                    }
                } else if kind == "reasoning" {
                    for (n, p) in (item["summary"] as? [Any] ?? []).enumerated() {
                        if let t = (p as? [String: Any])?["text"] as? String { thinking("\(id)/s\(n)", t) }
                    }
                    for (n, p) in (item["content"] as? [Any] ?? []).enumerated() {
                        if let t = (p as? [String: Any])?["text"] as? String { thinking("\(id)/r\(n)", t) }
                    }
                } else if kind.hasSuffix("_call") {
                    beginToolItem(item)
                    let slot = toolByItem[id]!
                    if b.out.toolCalls[slot].name.isEmpty, let n = item["name"] as? String { b.out.toolCalls[slot].name = n }
                    if let a = (item["arguments"] as? String) ?? (item["input"] as? String) ?? (item["code"] as? String) {
                        b.setArguments(slot, a)
                    } else if let a = item["action"] ?? item["queries"] ?? item["operation"], !(a is NSNull) {
                        b.setArguments(slot, serialize(a))
                    }
                }
            case "response.completed", "response.incomplete":
                b.out.completed = true
            case "response.failed":
                let r = o["response"] as? [String: Any] ?? [:]
                b.out.errors.append("response.failed: " + errorText(r["error"]))
            case "error":
                b.out.errors.append(errorText(o["error"] ?? o))
            default: break
            }
        }
    }

    // MARK: - Gemini streamGenerateContent?alt=sse

    static func gemini(_ bytes: [UInt8], _ b: Builder) {
        // A streamed call (Vertex / Gemini 3 `streamFunctionCallArguments`): a part with `name` and
        // `willContinue: true`, then parts with `partialArgs` [{jsonPath, stringValue|numberValue|
        // boolValue|nullValue, willContinue}] (a string whose piece has willContinue goes on in the
        // next piece for the same jsonPath), until a functionCall part without `willContinue`.
        var open: (slot: Int, args: Any?)?
        var lastPath: String?
        var lastPathContinues = false
        func close() {
            if let o = open, let args = o.args { b.setArguments(o.slot, serialize(args)) }
            open = nil; lastPath = nil; lastPathContinues = false
        }
        for ev in sse(bytes) {
            guard let o = json(ev.data) else { continue }
            if let e = o["error"], !(e is NSNull) { b.out.errors.append(errorText(e)) }
            let candidates = o["candidates"] as? [Any] ?? []
            guard let c = candidates.lazy.compactMap({ $0 as? [String: Any] }).first(where: { ($0["index"] as? Int ?? 0) == 0 }) else { continue }
            let parts = (c["content"] as? [String: Any])?["parts"] as? [Any] ?? []
            for case let p as [String: Any] in parts {
                if let fc = p["functionCall"] as? [String: Any] {
                    let continues = fc["willContinue"] as? Bool ?? false
                    let name = fc["name"] as? String ?? ""
                    if !name.isEmpty, open != nil { close() }
                    if open == nil {
                        if name.isEmpty, fc["partialArgs"] == nil, fc["args"] == nil, !continues { continue }  // a lone terminator
                        open = (b.addTool(name: name), nil)
                    }
                    if let args = fc["args"] as? [String: Any] { open!.args = args }
                    for case let pa as [String: Any] in (fc["partialArgs"] as? [Any] ?? []) {
                        guard let path = pa["jsonPath"] as? String else { continue }
                        var value: Any = NSNull()
                        if let s = pa["stringValue"] as? String {
                            if path == lastPath, lastPathContinues, let prior = lookup(open!.args, path) as? String { value = prior + s } else { value = s }
                        } else if let n = pa["numberValue"] { value = n } else if let v = pa["boolValue"] { value = v }
                        open!.args = assign(open!.args, path: path, value: value)
                        lastPath = path
                        lastPathContinues = pa["willContinue"] as? Bool ?? false
                    }
                    if !continues { close() }
                    continue
                }
                if open != nil { close() }
                if let code = p["executableCode"] as? [String: Any] {
                    let slot = b.addTool(name: "code_execution")
                    b.setArguments(slot, code["code"] as? String ?? "")
                } else if p["codeExecutionResult"] != nil || p["functionResponse"] != nil {
                    b.other()
                } else if let t = p["text"] as? String {
                    if p["thought"] as? Bool == true { b.appendThinking(t) } else { b.appendText(t) }
                }
            }
            if let r = c["finishReason"] as? String, !r.isEmpty { b.out.completed = true }
        }
        close()
    }

    /// Steps of an RFC 9535 normalized path such as `$.a.b[0]["c"]`: keys (String) and indexes (Int).
    static func pathSteps(_ path: String) -> [Any] {
        var steps: [Any] = []
        var s = Substring(path)
        if s.hasPrefix("$") { s = s.dropFirst() }
        while !s.isEmpty {
            if s.hasPrefix(".") {
                s = s.dropFirst()
                let end = s.firstIndex(where: { $0 == "." || $0 == "[" }) ?? s.endIndex
                steps.append(String(s[..<end])); s = s[end...]
            } else if s.hasPrefix("[") {
                s = s.dropFirst()
                guard let end = s.firstIndex(of: "]") else { break }
                var inner = String(s[..<end]); s = s[s.index(after: end)...]
                if let i = Int(inner) { steps.append(i); continue }
                if inner.count >= 2, let q = inner.first, q == "'" || q == "\"" { inner = String(inner.dropFirst().dropLast()) }
                steps.append(inner)
            } else { break }
        }
        return steps
    }

    static func lookup(_ root: Any?, _ path: String) -> Any? {
        var cur = root
        for step in pathSteps(path) {
            if let k = step as? String { cur = (cur as? [String: Any])?[k] } else if let i = step as? Int, let a = cur as? [Any], i < a.count { cur = a[i] } else { return nil }
        }
        return cur
    }

    static func assign(_ root: Any?, path: String, value: Any) -> Any {
        func put(_ node: Any?, _ steps: ArraySlice<Any>) -> Any {
            guard let step = steps.first else { return value }
            if let k = step as? String {
                var d = node as? [String: Any] ?? [:]
                d[k] = put(d[k], steps.dropFirst())
                return d
            }
            let i = step as! Int
            var a = node as? [Any] ?? []
            while a.count <= i { a.append(NSNull()) }
            a[i] = put(a[i], steps.dropFirst())
            return a
        }
        return put(root, ArraySlice(pathSteps(path)))
    }

    // MARK: - Ollama /api/chat and /api/generate (NDJSON)

    static func ollama(_ bytes: [UInt8], _ b: Builder) {
        for line in lines(bytes) where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let o = json(line) else { continue }
            if let e = o["error"], !(e is NSNull) { b.out.errors.append(errorText(e)) }
            let m = o["message"] as? [String: Any] ?? o  // /api/generate keeps the fields at top level
            b.appendThinking(m["thinking"] as? String ?? "")
            b.appendText((m["content"] as? String) ?? (o["response"] as? String) ?? "")
            for case let t as [String: Any] in (m["tool_calls"] as? [Any] ?? []) {
                let fn = t["function"] as? [String: Any] ?? [:]
                let slot = b.addTool(name: fn["name"] as? String ?? "")
                if let a = fn["arguments"] as? String { b.setArguments(slot, a) } else if let a = fn["arguments"] { b.setArguments(slot, serialize(a)) }
            }
            if o["done"] as? Bool == true { b.out.completed = true }
        }
    }
}

extension WireExtractor {
/// Collects pieces into blocks.
final class Builder {
    enum Kind { case none, text, thinking, other }
    var out = WireContent()
    private(set) var last: Kind = .none

    func beginText() {
        if last != .text { out.textBlocks.append(""); last = .text }
    }
    func appendText(_ s: String) {
        guard !s.isEmpty else { return }
        beginText()
        out.textBlocks[out.textBlocks.count - 1] += s
    }
    func beginThinking() {
        out.thinking.append(""); last = .thinking
    }
    func appendThinking(_ s: String) {
        guard !s.isEmpty else { return }
        if last != .thinking { beginThinking() }
        out.thinking[out.thinking.count - 1] += s
    }
    func other() { last = .other }
    func addTool(name: String) -> Int {
        last = .other
        out.toolCalls.append(WireContent.ToolCall(name: name, arguments: ""))
        return out.toolCalls.count - 1
    }
    func appendArguments(_ slot: Int, _ s: String) { out.toolCalls[slot].arguments += s }
    func setArguments(_ slot: Int, _ s: String) { out.toolCalls[slot].arguments = s }
    func finish() -> WireContent {
        var o = out
        o.textBlocks.removeAll { $0.isEmpty }
        o.thinking.removeAll { $0.isEmpty }
        return o
    }
}
}
