/// What the panes stream when no files are given: three Anthropic Messages streams
/// made here, each with thinking, a tool call and a markdown answer (code; several
/// scripts with wide CJK, emoji and combining marks; a table).
enum BuiltInStreams {
    static let all: [(name: String, bytes: [UInt8])] = [
        ("built-in code", anthropic([.thinking("The user wants to read a file line by line. Memory matters for big files."),
                                     .tool("search_docs", #"{"query": "Swift read file lines"}"#), .text(code)])),
        ("built-in languages", anthropic([.thinking("Greetings in several scripts; keep the table narrow."), .text(languages)])),
        ("built-in weather", anthropic([.thinking("I need the forecast first."),
                                        .tool("get_weather", #"{"city": "Lisbon", "days": 3}"#), .text(weather)])),
    ]

    enum Part {
        case thinking(String), text(String), tool(String, String)
    }

    /// An Anthropic Messages SSE stream of `parts`, in deltas of a few words each.
    static func anthropic(_ parts: [Part]) -> [UInt8] {
        func event(_ type: String, _ json: String) -> String { "event: \(type)\ndata: \(json)\n\n" }
        func quoted(_ s: String) -> String {
            "\"" + s.unicodeScalars.map { c in
                switch c {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case _ where c.value < 0x20: "\\u00" + String(c.value, radix: 16).leftPadded(to: 2)
                default: String(c)
                }
            }.joined() + "\""
        }
        func pieces(_ s: String) -> [String] {
            var result: [String] = [], words = 0, current = ""
            for c in s {
                current.append(c)
                if c == " " || c == "\n" { words += 1 }
                if words == 3 { result.append(current); current = ""; words = 0 }
            }
            return current.isEmpty ? result : result + [current]
        }
        var out = event("message_start", #"{"type":"message_start","message":{"id":"msg_sample","type":"message","role":"assistant","model":"sample","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}"#)
        for (index, part) in parts.enumerated() {
            let (block, delta, text): (String, String, String) = switch part {
            case .thinking(let t): (#"{"type":"thinking","thinking":""}"#, "thinking_delta\",\"thinking", t)
            case .text(let t): (#"{"type":"text","text":""}"#, "text_delta\",\"text", t)
            case .tool(let name, let input): (#"{"type":"tool_use","id":"toolu_\#(index)","name":"\#(name)","input":{}}"#, "input_json_delta\",\"partial_json", input)
            }
            out += event("content_block_start", #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#)
            for piece in pieces(text) {
                out += event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"\#(delta)":\#(quoted(piece))}}"#)
            }
            out += event("content_block_stop", #"{"type":"content_block_stop","index":\#(index)}"#)
        }
        out += event("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":200}}"#)
        return Array((out + event("message_stop", #"{"type":"message_stop"}"#)).utf8)
    }

    static let code = """
    # Reading a file line by line

    In Swift on Linux, the simplest way is to read the whole file and **split** it:

    ```swift
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\\n", omittingEmptySubsequences: false) {
        print(line.count, line)
    }
    ```

    For large files, read in *chunks* instead:

    1. open the file with `open(2)`;
    2. `read` 64 KiB at a time into a buffer;
    3. cut the buffer at each newline, keeping the unfinished last line for the next chunk.

    > A line can be cut by a chunk boundary, and so can a UTF-8 character: decode
    > only complete lines.

    That keeps memory flat whatever the file's size.

    """

    static let languages = """
    # Greetings around the world

    | Language | Hello | Thanks |
    | --- | --- | --- |
    | Japanese | こんにちは | ありがとう |
    | Chinese | 你好 | 谢谢 |
    | Korean | 안녕하세요 | 감사합니다 |
    | Hindi | नमस्ते | धन्यवाद |

    Wide characters take **two columns** in a terminal: 日本語のテキストは折り返しても
    列がずれません。Emoji too 🎉👍🏽, and a family 👨‍👩‍👧 is one cluster.

    - Français : *Bonjour*, merci beaucoup !
    - Español: ¡Hola! ¿Qué tal?
    - Ελληνικά: Γειά σου κόσμε
    - Tiếng Việt: Xin chào thế giới

    Combining marks stay with their letter: e\u{301}, a\u{300}, n\u{303}.

    """

    static let weather = """
    Lisbon, the next three days:

    | Day | Sky | °C |
    | --- | --- | --- |
    | Thu | ☀️ sunny | 19 |
    | Fri | ⛅ clouds | 17 |
    | Sat | 🌧 rain | 15 |

    Take an umbrella on **Saturday**.

    """
}

extension String {
    func leftPadded(to count: Int) -> String { String(repeating: "0", count: max(0, count - self.count)) + self }
}
