/// The built-in demo: an Anthropic Messages stream made from a short answer, fed
/// through the same pipeline as real input.
enum Demo {
    static let answer = """
    # StreamRender demo

    This answer arrives the way an LLM sends it: as **server-sent events**, a few \
    characters per delta. StreamRender decodes each event as it comes and shows the text \
    immediately, without waiting for a newline.

    It measures text the way terminals do: 日本語 and 한국어 take two columns per \
    character, 👍🏽 and 👨‍👩‍👧 are one cluster each, and e\u{301} is one column.

    ```swift
    let renderer = StreamRenderer(configuration: .init(output: .inline),
                                  sink: FileDescriptorSink())
    let outcome = await renderer.render(bytes)   // SSE or text, detected
    ```

    Escape sequences in model text are shown, never obeyed: \u{1B}]0;pwned\u{07} stays harmless.

    Pipe your own stream in: `curl -N ... | stream-render`.

    """

    /// The demo stream, one SSE event per element.
    static func sseChunks() -> [[UInt8]] {
        var events: [String] = []
        events.append(#"event: message_start\#ndata: {"type":"message_start","message":{"id":"msg_demo","type":"message","role":"assistant","content":[],"model":"stream-render-demo","stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}\#n\#n"#)
        events.append(#"event: content_block_start\#ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\#n\#n"#)
        var piece = ""
        var count = 0
        for character in answer {
            piece.append(character)
            count += 1
            if count >= 4 || character == " " || character == "\n" {
                events.append("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\(jsonString(piece))}}\n\n")
                piece = ""
                count = 0
            }
        }
        if !piece.isEmpty {
            events.append("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\(jsonString(piece))}}\n\n")
        }
        events.append(#"event: content_block_stop\#ndata: {"type":"content_block_stop","index":0}\#n\#n"#)
        events.append(#"event: message_delta\#ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":120}}\#n\#n"#)
        events.append(#"event: message_stop\#ndata: {"type":"message_stop"}\#n\#n"#)
        return events.map { Array($0.utf8) }
    }

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
