import Testing
@_spi(Benchmarks) @testable import StreamRender

/// What the Gemini, Ollama and plain-text SSE tests share: the verifier over
/// chunkings, and views of a decoding.
enum FormatTestSupport {
    typealias Decoded = DecoderVerifierTests.Decoded

    static func decode(_ bytes: [UInt8], format: ResponseDecoder.Format = .auto, chunk: Int = 0) -> Decoded {
        if chunk == 0 { return DecoderVerifierTests.decode([bytes[...]], format: format) }
        let chunks = stride(from: 0, to: bytes.count, by: chunk).map { bytes[$0..<min(bytes.count, $0 + chunk)] }
        return DecoderVerifierTests.decode(chunks, format: format)
    }

    static func decode(_ text: String, format: ResponseDecoder.Format = .auto, chunk: Int = 0) -> Decoded {
        decode(Array(text.utf8), format: format, chunk: chunk)
    }

    /// Cuts after every line end: one NDJSON line per chunk.
    static func lineChunks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            chunks.append(bytes[start...i])
            start = i + 1
        }
        if start < bytes.count { chunks.append(bytes[start...]) }
        return chunks
    }

    /// The swift-nio verifier: byte by byte, one event (or line) at a time and
    /// `iterations` seeded random chunkings all decode to exactly what the whole input
    /// decodes to. Returns the one-shot decoding.
    @discardableResult
    static func verifyChunkings(_ bytes: [UInt8], name: String, format: ResponseDecoder.Format = .auto,
                                seed fallback: UInt64, iterations: Int = 200) -> Decoded {
        let whole = DecoderVerifierTests.decode([bytes[...]], format: format)
        #expect(DecoderVerifierTests.decode(bytes.indices.map { bytes[$0...$0] }, format: format) == whole, "\(name) byte by byte")
        #expect(DecoderVerifierTests.decode(DecoderVerifierTests.eventChunks(bytes), format: format) == whole, "\(name) per event")
        #expect(DecoderVerifierTests.decode(lineChunks(bytes), format: format) == whole, "\(name) per line")
        let seed = TestSeed.base(fallback) &+ UInt64(name.utf8.count)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<iterations {
            let got = DecoderVerifierTests.decode(randomChunks(bytes, using: &rng, maxChunk: 200), format: format)
            if got != whole {
                Issue.record("seed \(seed) \(name) iteration \(iteration): decoding differs")
                break
            }
        }
        return whole
    }
}

extension DecoderVerifierTests.Decoded {
    var events: [StreamEvent] {
        outputs.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    var diagnostics: [StreamDiagnostic] {
        outputs.compactMap { if case .diagnostic(let d) = $0 { d } else { nil } }
    }

    var blocks: [ContentBlock] {
        events.compactMap { if case .blockStop(let b) = $0 { b } else { nil } }
    }

    var thinking: String {
        events.reduce(into: "") { if case .delta(_, .thinking, let t) = $1 { $0 += t } }
    }

    var errors: [String] {
        events.compactMap { if case .error(let type, let message) = $0 { "\(type): \(message)" } else { nil } }
    }
}

extension FormatTestSupport {
    /// The format auto-detection settles on for `bytes` fed in `chunk`-sized pieces
    /// (0: all at once).
    static func detectedFormat(_ bytes: [UInt8], chunk: Int = 0) -> ResponseDecoder.Format? {
        var decoder = ResponseDecoder()
        if chunk == 0 {
            decoder.feed(bytes) { _ in }
        } else {
            for start in stride(from: 0, to: bytes.count, by: chunk) { decoder.feed(bytes[start..<min(bytes.count, start + chunk)]) { _ in } }
        }
        decoder.finish { _ in }
        return decoder.format
    }
}
