import Foundation
import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Format detection never depends on how the input is cut: every fixture under
/// `Resources/sse`, and inputs whose first bytes leave the format open, decode in
/// seeded random chunkings to the one-shot format, events (text deltas joined, since
/// text is passed on as it arrives), diagnostics and completion; and a format, once
/// reported, is never changed.
@Suite struct ChunkingInvarianceTests {
    /// What a decoding says, with adjacent text deltas of one block and kind joined.
    struct Result: Equatable {
        var format: ResponseDecoder.Format?
        var outputs: [ResponseDecoder.Output]
        var complete: Bool
        /// A format reported before the end that differs from the final one.
        var changedFormat: ResponseDecoder.Format?
    }

    static func decode(_ chunks: [ArraySlice<UInt8>]) -> Result {
        var decoder = ResponseDecoder()
        var outputs: [ResponseDecoder.Output] = []
        var reported: [ResponseDecoder.Format] = []
        func add(_ output: ResponseDecoder.Output) {
            if case .event(.delta(let index, let kind, let text)) = output,
               case .event(.delta(index, kind, let before))? = outputs.last {
                outputs[outputs.count - 1] = .event(.delta(index: index, kind: kind, text: before + text))
            } else {
                outputs.append(output)
            }
        }
        for chunk in chunks {
            decoder.feed(chunk) { add($0) }
            if let format = decoder.format { reported.append(format) }
        }
        decoder.finish { add($0) }
        return Result(format: decoder.format, outputs: outputs, complete: decoder.isComplete,
                      changedFormat: reported.first { $0 != decoder.format })
    }

    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("sse").path)) ?? []
        return names.sorted()
    }

    /// Inputs whose first line, or first event, leaves the format open for a while.
    static let ambiguousText: [(name: String, text: String)] = [
        ("data prose", "data science is fun\nand this is prose\n"),
        ("data alone", "data"),
        ("eventually", "eventually this is prose, not an event line"),
        ("event lookalike", "event: launch party\nwe had fun\n"),
        ("comment lookalike", ":) smile\nthen text\n"),
        ("id then text", "id\nretry: 10\nnot a field\n"),
        ("plain-text SSE", "data: hello\n\ndata: world\n\ndata: [DONE]\n\n"),
        ("plain-text SSE, one event", "data: only one\n\n"),
        ("data then report", "data: 5 rows\n\nThe report follows.\n"),
        ("CR lines", "data: a\r\rdata: b\r\r"),
        ("blank lines first", "\n\r\n\ndata: {\"type\":\"ping\"}\n\n"),
        ("BOM", "\u{FEFF}event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"x\"}}\n\n"),
        ("SSE cut in its first event", "event: message_start\ndata: {\"type\":\"message_st"),
        ("long first field line", "data:" + String(repeating: "x", count: 2_000)),
        ("long prose line", "data" + String(repeating: "y", count: 2_000) + "\nmore\n"),
        ("JSON then text", "{\"a\": 1} and then text"),
        ("not JSON", "{ this is not json }"),
        ("JSON cut short", "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"cut"),
        ("error body", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n"),
        ("whole message", #"{"type":"message","id":"m","model":"x","content":[{"type":"text","text":"Hi there"}],"stop_reason":"end_turn","usage":{"output_tokens":2}}"#),
        ("chat completion", #"{"id":"c","model":"g","choices":[{"message":{"content":"Hello"},"finish_reason":"stop"}]}"#),
        ("ollama lines", "{\"model\":\"m\",\"response\":\"r\",\"done\":false}\n{\"model\":\"m\",\"response\":\"s\",\"done\":true}\n"),
    ]

    static let ambiguousBytes: [(name: String, bytes: [UInt8])] = [
        ("split scalar", Array("café au lait ".utf8) + [0xE2, 0x82] + Array(" and 日本語".utf8)),
        ("NUL early", Array("abc".utf8) + [0] + Array("def".utf8)),
        ("NUL late", Array(String(repeating: "z", count: 600).utf8) + [0, 0x41]),
        ("invalid UTF-8", (0..<600).map { UInt8(truncatingIfNeeded: 0x80 + $0 % 64) }),
        // Text past the detection probe, valid but for a stray byte and a cut character at
        // the end: most chunks are validated whole, a character cut by a chunk's end waits.
        ("long multilingual with bad bytes", Array(String(repeating: "prose, 日本語, é and 😀 — ", count: 40).utf8)
            + [0xFF] + Array(" more ✓".utf8) + [0xF0, 0x9F]),
    ]

    /// Detection looks at the first bytes; the rest of each fixture is decoded in 200
    /// chunkings by `DecoderVerifierTests` already, so a few here keep the suite cheap.
    @Test(arguments: fixtureNames)
    func fixturesDecodeTheSameInEveryChunking(_ name: String) {
        Self.expectChunkingInvariant(Fixtures.data("sse/\(name)"), name: name, iterations: 10)
    }

    @Test func ambiguousStartsDecodeTheSameInEveryChunking() {
        for input in Self.ambiguousText {
            Self.expectChunkingInvariant(Array(input.text.utf8), name: input.name, iterations: 300)
        }
        for input in Self.ambiguousBytes {
            Self.expectChunkingInvariant(input.bytes, name: input.name, iterations: 300)
        }
    }

    /// Byte by byte, then `iterations` seeded random chunkings (small pieces, so cuts
    /// fall inside field names and JSON), each equal to the one-shot decoding.
    static func expectChunkingInvariant(_ bytes: [UInt8], name: String, iterations: Int) {
        let whole = decode([bytes[...]])
        #expect(whole.changedFormat == nil, "\(name): the format changed after it was reported")
        let bytewise = decode(bytes.indices.map { bytes[$0...$0] })
        #expect(bytewise == whole, "\(name) byte by byte: \(bytewise.format.map(\.rawValue) ?? "nil") vs \(whole.format.map(\.rawValue) ?? "nil")")
        let base = TestSeed.base(0xC4_0A4C)
        let seed = base &+ UInt64(name.utf8.count)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<iterations {
            let chunks = randomChunks(bytes, using: &rng, maxChunk: iteration % 2 == 0 ? 8 : 300)
            let got = decode(chunks)
            if got != whole {
                Issue.record("STREAMRENDER_SEED=\(base) (seed \(seed)) \(name) iteration \(iteration): chunks \(chunks.map(\.count).prefix(12))… decode to \(got.format.map(\.rawValue) ?? "nil"), one-shot to \(whole.format.map(\.rawValue) ?? "nil")")
                return
            }
        }
    }
}
