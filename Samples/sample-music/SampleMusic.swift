// sample-music: music recommendations shown as a music app shows them while the
// answer streams. The model answers with records (`Artist: …`, `Song: …`, `---`)
// separated by `<>`; the program decodes the stream's text deltas with
// ResponseDecoder (Anthropic or OpenAI SSE, or plain text) and turns each record into
// a numbered card the moment the record is complete, never from half of one
// (MusicCards.swift), while the rest still streams. Cards are rows with the artist and
// the song in aligned columns, wide CJK and emoji measured as the terminal measures
// them; on a terminal they are styled and written through the library's InlineView
// (into the scrollback), into a pipe as plain rows. Thinking and tool calls are not
// records: they are left out.
//
//   swift run sample-music Tests/StreamRenderTests/Resources/sse/music.thinking-tool.crlf.sse
//   swift run sample-music Tests/StreamRenderTests/Resources/sse/music.overloaded.sse  # ends in an API error
//   swift run sample-music --rate 20 Tests/StreamRenderTests/Resources/answers/music-recommendations.txt
//   curl -sN https://api.anthropic.com/v1/messages ... | swift run sample-music
//
// A file shown on a terminal is played at --rate events a second (default 60; text in
// pieces of about 4 bytes), so the cards arrive as they would from the network;
// 0, or a pipe, reads it at once. Exit status: 0 the stream completed, 1 it failed
// (an API error, cut short, undecodable), 2 usage, 3 an unreadable file.
import StreamRender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum SampleMusic {
    static func main() {
        var rate = 60.0
        var path: String?
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--rate", let value = arguments.popFirst().flatMap(Double.init), value >= 0 {
                rate = value
            } else if !argument.hasPrefix("-") && path == nil {
                path = argument
            } else {
                fail("usage: sample-music [--rate EVENTS_PER_SECOND] [FILE]", 2)
            }
        }
        if path == nil && isatty(STDIN_FILENO) != 0 {
            fail("give a file or pipe a stream into it: swift run sample-music < answer.sse", 2)
        }
        let terminal = TerminalSession()
        var stream = CardStream(terminal: terminal)
        if let path {
            guard let bytes = readFile(path) else { fail("cannot read \(path): \(String(cString: strerror(errno)))", 3) }
            if rate > 0 && terminal.outputIsTerminal {
                let start = ContinuousClock.now
                for chunk in ReplayCapture(bytes, tokensPerSecond: rate).chunks {
                    let left = ContinuousClock.now.duration(to: start + chunk.time)
                    if left > .zero { usleep(UInt32(left / .microseconds(1))) }
                    stream.feed(chunk.bytes)
                }
            } else {
                stream.feed(bytes)
            }
        } else {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { fail("cannot read standard input: \(String(cString: strerror(errno)))", 3) }
                if count == 0 { break }
                stream.feed(buffer[..<count])
            }
        }
        exit(stream.finish())
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    static func fail(_ message: String, _ status: Int32) -> Never {
        report(message)
        exit(status)
    }

    /// A line on standard error.
    static func report(_ message: String) {
        var line = "sample-music: \(message)\n"
        line.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }
}

/// A response stream in, cards out: decoded, parsed record by record, shown.
struct CardStream {
    private var decoder = ResponseDecoder(assemblesText: false)
    private var cards = MusicCards()
    private let format: MusicCards.CardFormat
    /// On a terminal: styled rows written into the scrollback. Nil into a pipe.
    private var view: InlineView?
    private let sink = FileDescriptorSink()
    private var failure: String?

    init(terminal: TerminalSession) {
        guard terminal.outputIsTerminal, terminal.size != nil else {
            format = MusicCards.CardFormat(width: 80, policy: .wcwidth)
            return
        }
        // The terminal's size, colours and widths as it draws them (grapheme clusters
        // only where it says so, mode 2027), as stream-render sets them up.
        let configuration = StreamRenderer.Configuration.forTerminal(terminal, choices: .init(output: .inline))
        format = MusicCards.CardFormat(width: configuration.layout.width, policy: configuration.layout.policy)
        view = InlineView(settings: configuration.layout, height: configuration.height,
                          capabilities: configuration.capabilities)
    }

    /// Decodes `bytes` (cut anywhere) and shows the cards of the records they complete.
    ///
    /// - Complexity: O(n) in the bytes, plus the cards shown.
    mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        var outputs: [ResponseDecoder.Output] = []
        decoder.feed(bytes) { outputs.append($0) }
        handle(outputs)
    }

    /// Ends the stream: the last record, the view, and a line on standard error if the
    /// stream failed. Returns the exit status.
    mutating func finish() -> Int32 {
        var outputs: [ResponseDecoder.Output] = []
        decoder.finish { outputs.append($0) }
        handle(outputs)
        show(cards.finish())
        if view != nil {
            var out: [UInt8] = []
            view!.finish()
            view!.frame(into: &out)
            view!.end(into: &out)
            write(out)
        }
        if cards.incompleteRecords > 0 {
            SampleMusic.report("\(cards.incompleteRecords) records without both an artist and a song were left out")
        }
        if failure == nil && decoder.bytesIn == 0 { failure = "empty input" }
        if failure == nil && !decoder.isComplete { failure = "the stream ended before its end event" }
        guard let failure else { return 0 }
        SampleMusic.report("\(failure) (after \(cards.count) cards)")
        return 1
    }

    private mutating func handle(_ outputs: [ResponseDecoder.Output]) {
        for output in outputs {
            switch output {
            case .event(.delta(_, .text, let text)):
                show(cards.feed(text))
            case .event(.error(let type, let message)):
                var sanitizer = ControlSanitizer()
                failure = failure ?? "the stream reported \(sanitizer.sanitize(type)): \(sanitizer.sanitize(message))"
            case .diagnostic(let d) where d.kind != .truncatedEvent:
                failure = failure ?? "\(d)"
            default:
                break  // thinking, tool calls, pings, usage
            }
        }
    }

    private mutating func show(_ new: [MusicCards.Card]) {
        guard !new.isEmpty else { return }
        guard view != nil else {
            write(Array(new.map { format.row(of: $0) + "\n" }.joined().utf8))
            return
        }
        for card in new {
            for piece in format.pieces(of: card) {
                view!.append(piece.text, style: Self.style(piece.role))
            }
            view!.append("\n")
        }
        var out: [UInt8] = []
        view!.frame(into: &out)
        write(out)
    }

    private static func style(_ role: MusicCards.CardFormat.Role) -> Style {
        switch role {
        case .number: Style(attributes: .dim)
        case .artist: Style(attributes: .bold)
        case .separator: Style(foreground: .magenta)
        case .song: Style(foreground: .cyan)
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { sink.write($0) }
    }
}
