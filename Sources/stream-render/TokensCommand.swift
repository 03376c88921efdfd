import ArgumentParser
import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stream-render tokens`: the highlighter's tokens of a file, for comparing with
/// other tools.
struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        _superCommandName: "stream-render",
        abstract: "Print the syntax highlighter's tokens of code: one 'start end kind' line per token.",
        discussion: """
        Reads FILE, or standard input when FILE is absent or '-', as code in LANGUAGE and \
        prints each token as it is lexed (line by line, as code streams in): its start and \
        end as UTF-8 byte offsets in the input (end exclusive) and its kind. Whitespace \
        between tokens is not printed; a byte in no token is plain.

        Kinds: \(TokenKind.allCases.map(\.name).joined(separator: ", ")).
        Languages (and fence aliases): \(HighlightLanguage.all.map { ([$0.name] + $0.aliases).joined(separator: "/") }.joined(separator: ", ")).

          stream-render tokens --language swift Sources/main.swift
          git diff | stream-render tokens --language diff
        """
    )

    @Option(name: .long, help: "The code's language, by name or alias (as after a code fence's ```).")
    var language: String

    @Argument(help: "A code file; '-' or absent for standard input.")
    var file: String?

    func validate() throws {
        if HighlightLanguage.named(language) == nil {
            throw ValidationError("unknown language '\(language)'; known: \(HighlightLanguage.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var input: Int32 = STDIN_FILENO
        let name = file ?? "-"
        if name != "-" {
            input = open(name, O_RDONLY | O_CLOEXEC)
            if input < 0 {
                StreamRenderCommand.error("cannot open \(name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
        }
        var stream = TokenStream(language: HighlightLanguage.named(language)!)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var output: [UInt8] = []
        func flush() throws {
            let ok = output.withUnsafeBufferPointer { FileDescriptorSink.writeAll(STDOUT_FILENO, $0) }
            output.removeAll(keepingCapacity: true)
            if !ok { throw ExitCode(0) }  // the reader went away (`| head`)
        }
        func emit(_ tokens: [Token]) {
            for token in tokens { output += token.description.utf8; output.append(0x0A) }
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { FileDescriptorSink.readSome(input, into: $0) }
            if n < 0 {
                try flush()
                StreamRenderCommand.error("cannot read \(name == "-" ? "standard input" : name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
            if n == 0 { break }
            emit(stream.append(buffer[0..<n]))
            try flush()
        }
        emit(stream.finish())
        try flush()
    }
}
