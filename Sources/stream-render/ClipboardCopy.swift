#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamRender

/// `--copy N|last`: keeps the chosen code block as the answer streams and, at the end,
/// puts its exact source on the clipboard through the terminal (OSC 52), base64 so
/// nothing from the answer reaches the terminal as a control.
final class ClipboardCopy {
    enum Choice: Equatable {
        case number(Int)
        case last
    }

    /// `last`, or a block number from 1.
    static func parse(_ text: String) -> Choice? {
        if text == "last" { return .last }
        if let n = Int(text), n >= 1 { return .number(n) }
        return nil
    }

    let choice: Choice
    private(set) var chosen: CodeBlock?
    private(set) var count = 0

    init(_ choice: Choice) {
        self.choice = choice
    }

    /// A finished block of the answer (they come in order).
    func see(_ block: CodeBlock) {
        count = max(count, block.number)
        if choice == .last || choice == .number(block.number) { chosen = block }
    }

    /// Writes the block to the terminal's clipboard: standard output when it is a
    /// terminal, else the controlling terminal (`/dev/tty`); never into a pipe or a
    /// file, nor to a terminal that takes no controls (`TERM=dumb`). Says on standard
    /// error what was copied, or why nothing was.
    func finish() {
        guard let block = chosen else {
            let asked = if case .number(let n) = choice { "\(n)" } else { "last" }
            let has = count == 0 ? "no code blocks" : count == 1 ? "1 code block" : "\(count) code blocks"
            return say("--copy \(asked): the answer has \(has); nothing copied")
        }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return say("--copy: TERM=dumb takes no clipboard sequence; nothing copied") }
        var descriptor = STDOUT_FILENO
        var opened = false
        if isatty(STDOUT_FILENO) == 0 {
            descriptor = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { return say("--copy: no terminal to reach the clipboard through; nothing copied") }
            opened = true
        }
        let bytes = ANSIEncoder.setClipboard(block.code.utf8)
        let written = bytes.withUnsafeBufferPointer { FileDescriptorSink.writeAll(descriptor, $0) }
        if opened { close(descriptor) }
        guard written else { return say("--copy: cannot write to the terminal: \(String(cString: strerror(errno)))") }
        let lines = block.code.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        let language = block.info.isEmpty ? "" : "\(block.info), "
        say("copied code block \(block.number) (\(language)\(lines) line\(lines == 1 ? "" : "s")) to the clipboard")
    }

    private func say(_ message: String) {
        var line = "stream-render: \(message)\n"
        line.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }
}
