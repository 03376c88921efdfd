import Foundation
import StreamRender
import Testing
@testable import sample_async
@testable import sample_music

/// The built samples, run as a user runs them (output into a pipe), and
/// sample-async's reader on a pipe in this process.
@Suite struct SampleProgramTests {
    static func binary(_ name: String) -> URL {
        // The test bundle sits in the build folder next to the products.
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return dir.appendingPathComponent(name)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `environment`: added to the test's own, from which the variables the terminal
    /// set-up reads are removed (a developer's `COLUMNS` must not change the outcome).
    static func run(_ name: String, _ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = binary(name)
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for name in StreamRenderer.Configuration.terminalEnvironmentNames { variables[name] = nil }
        process.environment = variables.merging(environment) { $1 }
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// What a plain renderer prints for `bytes` (the terminal set-up's choice into a pipe).
    static func plain(_ bytes: [UInt8], width: Int = 80) -> String {
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: width),
            content: .init(theme: .monochrome)), sink: sink)
        renderer.feed(bytes)
        renderer.finish()
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    @Test func minimalPrintsTheAnswerIntoAPipe() throws {
        let fixture = "sse/coding-answer.anthropic.sse"
        let r = try Self.run("sample-minimal", [Fixtures.path(fixture)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.plain(Fixtures.bytes(fixture)))
        let failed = try Self.run("sample-minimal", [Fixtures.path("sse/music.overloaded.sse")])
        #expect(failed.status == 1 && failed.stderr.contains("overloaded_error"), "\(failed.stderr)")
        let missing = try Self.run("sample-minimal", ["/nonexistent/answer.sse"])
        #expect(missing.status == 3, "\(missing.stderr)")
    }

    /// The minimal samples configure through `Configuration.forTerminal`: into a pipe,
    /// `COLUMNS` sets the width as it does for stream-render.
    @Test func minimalSamplesTakeTheWidthFromColumnsIntoAPipe() throws {
        let fixture = "sse/coding-answer.anthropic.sse"
        let want = Self.plain(Fixtures.bytes(fixture), width: 40)
        #expect(want != Self.plain(Fixtures.bytes(fixture)))
        let minimal = try Self.run("sample-minimal", [Fixtures.path(fixture)], environment: ["COLUMNS": "40", "NO_COLOR": "1"])
        #expect(minimal.status == 0 && minimal.stdout == want, "\(minimal.stderr)")
        let async = try Self.run("sample-async", [], stdin: Fixtures.bytes(fixture), environment: ["COLUMNS": "40", "TERM": "dumb"])
        #expect(async.status == 0 && async.stdout == want, "\(async.stderr)")
    }

    @Test func asyncRendersStandardInput() throws {
        let bytes = Fixtures.bytes("sse/coding-answer.openai.sse")
        let r = try Self.run("sample-async", [], stdin: bytes)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.plain(bytes))
    }

    @Test func theAsyncReaderHandsOverEveryByteAsItArrives() async {
        let bytes = Fixtures.bytes("sse/music.thinking-tool.crlf.sse")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (reading, writing) = (fds[0], fds[1])
        // A writer that trickles the stream in uneven pieces.
        Thread.detachNewThread {
            var offset = 0, size = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + size)
                bytes[offset..<end].withUnsafeBufferPointer { _ = FileDescriptorSink.writeAll(writing, $0) }
                offset = end
                size = size * 3 % 1000 + 1
            }
            close(writing)
        }
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .plain, endsOnFreshLine: true), sink: sink)
        let outcome = await renderer.render(chunks: chunks(readingDescriptor: reading, size: 777))
        close(reading)
        #expect(outcome.ending == .complete)
        #expect(String(decoding: sink.bytes, as: UTF8.self) == Self.plain(bytes))
    }

    @Test func panesDrawsAFixedNumberOfFramesIntoAPipe() throws {
        let r = try Self.run("sample-panes", ["--frames", "12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("\u{1B}[?1049h"))  // the alternate screen...
        let left = String(decoding: ANSIEncoder.leaveAlternateScreen, as: UTF8.self)
        #expect(r.stdout.contains(left))              // ...left before the summary
        let summary = r.stdout.components(separatedBy: left).last ?? ""
        #expect(summary.split(separator: "\n").count == 3)
        #expect(summary.contains("built-in code: stopped") && summary.contains("12 frames"), "\(summary)")
        // Fast enough to finish: a complete stream and a failed one.
        let files = try Self.run("sample-panes", ["--rate", "1000000", "--frames", "400",
                                                  Fixtures.path("sse/coding-answer.openai.sse"),
                                                  Fixtures.path("sse/music.overloaded.sse")])
        #expect(files.status == 1, "\(files.stderr)")
        #expect(files.stdout.contains("coding-answer.openai.sse: done") &&
                files.stdout.contains("music.overloaded.sse: failed: the stream reported overloaded_error"), "\(files.stdout.suffix(300))")
        // Without a limit into a pipe: every stream to its end, paced, then the program ends by itself.
        let whole = try Self.run("sample-panes", ["--rate", "20000"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.components(separatedBy: "\n").filter { $0.contains(": done, ") }.count == 3, "\(whole.stdout.suffix(300))")
        let bad = try Self.run("sample-panes", ["--frames", "0"])
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test func musicPrintsOneRowPerCard() throws {
        let format = MusicCards.CardFormat(width: 80, policy: .wcwidth)
        let rows = MusicCardsTests.oneShot.map { format.row(of: $0) }
        let r = try Self.run("sample-music", [Fixtures.path("sse/music.thinking-tool.crlf.sse")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").map(String.init) == rows)
        #expect(r.stdout.hasPrefix("  1. The Weeknd     "))
        // From standard input; the stream ends with an API error after its last record.
        let failed = try Self.run("sample-music", [], stdin: Fixtures.bytes("sse/music.overloaded.sse"))
        #expect(failed.status == 1 && failed.stderr.contains("overloaded_error"), "\(failed.stderr)")
        #expect(failed.stdout.split(separator: "\n").map(String.init) == rows)
    }
}
