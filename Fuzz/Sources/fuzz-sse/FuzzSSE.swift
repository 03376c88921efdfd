import FuzzSupport
@_spi(Fuzzing) import StreamRender

// The SSE parser and the response decoder (format detection, Anthropic, OpenAI, text,
// whole JSON bodies) as a chunking differential: the input is fed whole, cut at up to
// three points taken from its first bytes, and in small pieces (size from its last
// byte); every chunking must give the same events, diagnostics and end state. Both
// promise this ("Bytes may arrive in any chunking; the events are the same").
//
// Text deltas come out per piece fed (text is shown as it arrives), so neighbouring
// deltas of one block are joined before comparing: the text must be the same, not
// how it was cut.

/// Everything a decoder run produced.
struct DecoderRun: Equatable {
    var outputs: [ResponseDecoder.Output] = []
    var format: ResponseDecoder.Format?
    var isComplete = false
    var sawError = false
    var stopReason: String?
    var usage = Usage()
    var sseEventCount = 0
    var bytesIn = 0

    /// The end state, for failure messages.
    var state: String {
        "format \(format.map(\.rawValue) ?? "nil"), complete \(isComplete), error \(sawError), stop \(stopReason ?? "nil"), "
            + "usage \(usage), events \(sseEventCount), bytes \(bytesIn)"
    }

    mutating func record(_ output: ResponseDecoder.Output) {
        if case .event(.delta(let index, let kind, let text)) = output,
           case .event(.delta(index, kind, let before))? = outputs.last {
            outputs[outputs.count - 1] = .event(.delta(index: index, kind: kind, text: before + text))
        } else {
            outputs.append(output)
        }
    }
}

func decode(_ data: UnsafeBufferPointer<UInt8>, _ pieces: [Range<Int>]) -> DecoderRun {
    var decoder = ResponseDecoder(format: .auto)
    var run = DecoderRun()
    for piece in pieces {
        decoder.feed(UnsafeBufferPointer(rebasing: data[piece])) { run.record($0) }
    }
    decoder.finish { run.record($0) }
    run.format = decoder.format
    run.isComplete = decoder.isComplete
    run.sawError = decoder.sawError
    run.stopReason = decoder.stopReason
    run.usage = decoder.usage
    run.sseEventCount = decoder.sseEventCount
    run.bytesIn = decoder.bytesIn
    return run
}

/// Everything a parser run produced.
struct ParserRun: Equatable {
    var outputs: [SSEParser.Output] = []
    var eventCount = 0
    var bytesConsumed = 0
    var reconnectionTime: Int?
}

func parse(_ data: UnsafeBufferPointer<UInt8>, _ pieces: [Range<Int>], maximumEventBytes: Int) -> ParserRun {
    var parser = SSEParser(maximumEventBytes: maximumEventBytes)
    var run = ParserRun()
    for piece in pieces {
        parser.feed(UnsafeBufferPointer(rebasing: data[piece])) { run.outputs.append($0) }
    }
    parser.finish { run.outputs.append($0) }
    run.eventCount = parser.eventCount
    run.bytesConsumed = parser.bytesConsumed
    run.reconnectionTime = parser.reconnectionTime
    return run
}

/// The first output where two runs differ, for the failure message.
func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> String {
    for k in 0..<max(a.count, b.count) {
        let x = k < a.count ? "\(a[k])" : "nothing"
        let y = k < b.count ? "\(b[k])" : "nothing"
        if x != y { return "output \(k): whole gives \(x), chunked gives \(y)" }
    }
    return "same outputs; the end state differs"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt {
    let data = UnsafeBufferPointer(start: d, count: n)
    let whole = [0..<n]
    let cut = Chunkings.pieces(length: n, cuts: Chunkings.cuts(of: data, count: 3, length: n))
    let small = Chunkings.pieces(length: n, size: 1 + Int(n > 0 ? data[n - 1] : 0) % 16)
    let chunkings = [("cut at \(cut.dropFirst().map(\.lowerBound))", cut), ("in pieces of \(small[0].count)", small)]

    let decoded = decode(data, whole)
    for (name, pieces) in chunkings {
        let other = decode(data, pieces)
        if other != decoded {
            fuzzFailure("ResponseDecoder fed \(name) differs from fed whole: \(firstDifference(decoded.outputs, other.outputs))"
                + "\n  whole:   \(decoded.state)\n  chunked: \(other.state)")
        }
    }

    // The parser alone, with the standard limit and with a small one (so lines and
    // events over the limit are dropped, which must not depend on the chunking either).
    let limit = 8 + Int(n > 1 ? data[n - 2] : 0) % 120
    for maximumEventBytes in [16 << 20, limit] {
        let parsed = parse(data, whole, maximumEventBytes: maximumEventBytes)
        for (name, pieces) in chunkings {
            let other = parse(data, pieces, maximumEventBytes: maximumEventBytes)
            if other != parsed {
                fuzzFailure("SSEParser (limit \(maximumEventBytes)) fed \(name) differs from fed whole: "
                    + firstDifference(parsed.outputs, other.outputs))
            }
        }
    }
    return 0
}
