/// A fenced code block of the answer, once it is finished.
public struct CodeBlock: Sendable, Equatable {
    /// The first word of the fence's info string (`swift`, `py`, `{.rust}`), or "".
    public var info: String
    /// The code, each line ending with a line feed, the fence's indentation removed.
    public var code: String

    public init(info: String, code: String) {
        self.info = info
        self.code = code
    }

    /// The language the highlighter knows by that name, if any.
    public var language: HighlightLanguage? { HighlightLanguage.named(info) }

    /// A file extension for the code: the language's usual one, else `txt`.
    public var fileExtension: String { language?.fileExtension ?? "txt" }
}

/// Finds the top-level fenced code blocks of markdown text arriving in pieces, the
/// same fences ``MarkdownStream`` renders as code (up to three spaces, three or more
/// backticks or tildes; closed by a like fence at least as long, or by the end). A
/// block is reported once its closing fence line has ended (or at ``finish()``).
/// Fences inside lists and quotes are not looked for.
struct CodeBlockCollector {
    private var partial: [UInt8] = []
    private var fence: MarkdownStream.Fence?
    private var info = ""
    private var code: [UInt8] = []

    init() {}

    /// Feeds text; returns the blocks finished by it.
    ///
    /// - Complexity: O(n) in the bytes of `text`, plus the current line.
    mutating func feed(_ text: String) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for k in bytes.indices where bytes[k] == 0x0A {
                partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<k]))
                line(&blocks)
                start = k + 1
            }
            partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        return blocks
    }

    /// Ends the text: a fence still open is a finished block (the end closes it).
    ///
    /// - Complexity: O(c) in the current line.
    mutating func finish() -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        if !partial.isEmpty { line(&blocks) }
        if fence != nil {
            blocks.append(CodeBlock(info: info, code: String(decoding: code, as: UTF8.self)))
            fence = nil
            code = []
        }
        return blocks
    }

    private mutating func line(_ blocks: inout [CodeBlock]) {
        var line: [UInt8] = []
        swap(&line, &partial)
        if line.last == 0x0D { line.removeLast() }
        if let f = fence {
            if MarkdownStream.closes(line, f) {
                blocks.append(CodeBlock(info: info, code: String(decoding: code, as: UTF8.self)))
                fence = nil
                code.removeAll()
            } else {
                code += MarkdownStream.strip(line, f.indent)
                code.append(0x0A)
            }
        } else if let opener = MarkdownStream.fenceOpener(line) {
            fence = opener
            let rest = line.dropFirst(opener.indent).drop { $0 == opener.character }
            let word = rest.drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 != 0x20 && $0 != 0x09 }
            info = String(decoding: word, as: UTF8.self)
        }
    }
}
