import Foundation
import Testing

/// Long streams through the whole pipeline with a bounded history: memory stays under
/// a ceiling and flat after warm-up. CI runs a short soak (`STREAMRENDER_SOAK_MB`, 6 MB
/// of SSE by default); `Scripts/soak/run` runs the 1 GB one and records its figures.
@Suite(.serialized) struct SoakTests: EndToEnd {
    /// An endless Anthropic stream: markdown prose, lists, code fences, a table, CJK and
    /// emoji, in deltas of 1-12 bytes. Deterministic from `seed`.
    struct StreamGenerator {
        var rng: UInt64
        var pieces: [String] = []
        init(seed: UInt64) { rng = seed }

        mutating func next() -> UInt64 {
            rng &+= 0x9E37_79B9_7F4A_7C15
            var z = rng
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        static let head = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"soak\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        static let tail = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

        static let blocks = [
            "## A heading for this part\n\nStreaming text arrives in **small pieces**, and every piece must cost time in proportion to itself, not to the answer so far. ",
            "Here is a list:\n\n- the first item with `code`\n- the second item, a little longer than the first one\n  - nested, with *emphasis*\n\n",
            "```swift\nlet renderer = StreamRenderer(configuration: .init(output: .inline), sink: sink)\nfor chunk in chunks { renderer.feed(chunk) }\n```\n\n",
            "| Name | Native | Emoji |\n| --- | --- | --- |\n| Japanese | 日本語 | 🇯🇵 |\n| Korean | 한국어 | 👋🏽 |\n\n",
            "> A quote that goes on for a while, so that it wraps at the width and comes back as a few lines of text.\n\n",
            "Plain prose again: the quick brown fox jumps over the lazy dog, e\u{301}tude, naïve café, and so on.\n\n",
        ]

        /// The next SSE event carrying a delta.
        mutating func event() -> String {
            if pieces.isEmpty {
                let block = Self.blocks[Int(next() % UInt64(Self.blocks.count))]
                var rest = Substring(block)
                while !rest.isEmpty {
                    let n = 1 + Int(next() % 12)
                    let piece = rest.prefix(n)
                    pieces.append(String(piece))
                    rest = rest.dropFirst(piece.count)
                }
                pieces.reverse()
            }
            let text = pieces.removeLast()
            var json = ""
            for s in text.unicodeScalars {
                switch s {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "\n": json += "\\n"
                default: json.unicodeScalars.append(s)
                }
            }
            return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\(json)\"}}\n\n"
        }
    }

    struct Sample { var time: Double; var rssKB: Int }

    /// Streams `megabytes` of SSE into `stream-render arguments` (stdout discarded),
    /// sampling its resident memory; returns the samples, the peak (VmHWM) and the exit status.
    static func soak(megabytes: Int, _ arguments: [String]) throws -> (samples: [Sample], peakKB: Int, status: Int32) {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["STREAM_RENDER_OPTS"] = nil
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let pid = process.processIdentifier
        func status(_ key: String) -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return nil }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        let start = Date()
        var samples: [Sample] = []
        var peak = 0
        let writer = input.fileHandleForWriting
        var generator = StreamGenerator(seed: 14)
        writer.write(Data(StreamGenerator.head.utf8))
        let target = megabytes << 20
        var written = 0
        var batch = ""
        while written < target {
            batch.removeAll(keepingCapacity: true)
            while batch.utf8.count < 1 << 16 { batch += generator.event() }
            writer.write(Data(batch.utf8))
            written += batch.utf8.count
            if let rss = status("VmRSS:") { samples.append(Sample(time: Date().timeIntervalSince(start), rssKB: rss)) }
        }
        peak = status("VmHWM:") ?? 0
        writer.write(Data(StreamGenerator.tail.utf8))
        try writer.close()
        process.waitUntilExit()
        return (samples, peak, process.terminationStatus)
    }

    static var megabytes: Int {
        ProcessInfo.processInfo.environment["STREAMRENDER_SOAK_MB"].flatMap(Int.init) ?? 6
    }

    /// Plain output (the default into a pipe) and the live view (paced, as on a
    /// terminal), markdown on, history bounded at 10,000 lines.
    @Test(arguments: [["--max-lines", "10000"], ["--max-lines", "10000", "--output", "ansi", "--height", "40"]])
    func memoryStaysBoundedAndFlat(_ arguments: [String]) throws {
        let (samples, peak, status) = try Self.soak(megabytes: Self.megabytes, arguments)
        #expect(status == 0)
        #expect(samples.count > 20)
        // Under 64 MB, and flat: the last third's highest sample within 20% (+ 4 MB) of
        // the middle third's.
        #expect(peak > 0 && peak < 64 * 1024 * CommandLineTests.memoryFactor, "peak RSS \(peak) KB")
        let third = samples.count / 3
        let middle = samples[third..<(2 * third)].map(\.rssKB).max() ?? 0
        let last = samples[(2 * third)...].map(\.rssKB).max() ?? 0
        #expect(Double(last) <= Double(middle) * 1.2 + 4096, "RSS grew: middle third up to \(middle) KB, last third up to \(last) KB")
    }
}
