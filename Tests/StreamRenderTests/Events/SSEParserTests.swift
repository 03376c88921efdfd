import Testing
@_spi(Fuzzing) @_spi(Benchmarks) @testable import StreamRender

/// The WHATWG "event stream interpretation" rules, one named test each.
@Suite struct SSEParserTests {
    struct Parsed: Equatable {
        var events: [SSEEvent]
        var diagnostics: [StreamDiagnostic.Kind]
    }

    func parse(_ text: String, chunk: Int? = nil, maximumEventBytes: Int = 1 << 20) -> Parsed {
        parse(Array(text.utf8), chunk: chunk, maximumEventBytes: maximumEventBytes)
    }

    func parse(_ bytes: [UInt8], chunk: Int? = nil, maximumEventBytes: Int = 1 << 20) -> Parsed {
        var parser = SSEParser(maximumEventBytes: maximumEventBytes)
        var result = Parsed(events: [], diagnostics: [])
        let sink: (SSEParser.Output) -> Void = {
            switch $0 {
            case .event(let e): result.events.append(e)
            case .diagnostic(let d): result.diagnostics.append(d.kind)
            }
        }
        if let chunk {
            var i = 0
            while i < bytes.count { parser.feed(bytes[i..<min(i + chunk, bytes.count)], sink); i += chunk }
        } else {
            parser.feed(bytes, sink)
        }
        parser.finish(sink)
        return result
    }

    func datas(_ p: Parsed) -> [String] { p.events.map(\.dataString) }

    @Test func linesEndInCRLFOrLFOrCRInAnyMix() {
        let p = parse("data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\ndata: e\n\r\n")
        #expect(datas(p) == ["a", "b", "c", "d", "e"])
    }

    @Test func aCRLFSplitAcrossChunksIsOneLineEnd() {
        // Split after every CR: if CR and LF counted as two line ends, "data: a\r" +
        // "\ndata: b" would dispatch early and lose nothing but change events.
        let text = "data: a\r\ndata: b\r\n\r\n"
        for chunk in 1...text.utf8.count {
            #expect(datas(parse(text, chunk: chunk)) == ["a\nb"], "chunk \(chunk)")
        }
    }

    @Test func aLeadingBOMIsStrippedOnceEvenWhenSplit() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)
        for chunk in 1...4 {
            let p = parse(bytes, chunk: chunk)
            #expect(datas(p) == ["x"])
            #expect(p.events.first?.byteOffset == 3)
        }
        // A second BOM is content: here it makes the field name "\u{FEFF}data", ignored.
        let twice: [UInt8] = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)
        #expect(datas(parse(twice)) == [])
    }

    @Test func aPartialBOMAtTheStartIsContent() {
        // EF BB then 'A': not a BOM, so all three bytes are the first line's content.
        for chunk in [1, 2, 3] {
            var parser = SSEParser()
            var kinds: [StreamDiagnostic.Kind] = []
            let bytes: [UInt8] = [0xEF, 0xBB, 0x41]
            var i = 0
            while i < bytes.count {
                parser.feed(bytes[i..<min(i + chunk, bytes.count)]) { if case .diagnostic(let d) = $0 { kinds.append(d.kind) } }
                i += chunk
            }
            #expect(parser.bytesConsumed == 3)
            parser.finish { if case .diagnostic(let d) = $0 { kinds.append(d.kind) } }
            #expect(kinds == [.truncatedEvent], "chunk \(chunk)")
        }
        // Held at the end of the stream, the partial BOM is still content.
        var parser = SSEParser()
        var kinds: [StreamDiagnostic.Kind] = []
        parser.feed([UInt8]([0xEF, 0xBB])) { _ in }
        parser.finish { if case .diagnostic(let d) = $0 { kinds.append(d.kind) } }
        #expect(parser.bytesConsumed == 2)
        #expect(kinds == [.truncatedEvent])
    }

    @Test func commentLinesAreIgnored() {
        #expect(datas(parse(": hello\ndata: a\n: another\n\n:only a comment\n\n")) == ["a"])
    }

    @Test func oneLeadingSpaceIsRemovedFromTheValue() {
        #expect(datas(parse("data:a\n\ndata: b\n\ndata:  c\n\n")) == ["a", "b", " c"])
    }

    @Test func aFieldWithoutAColonHasAnEmptyValue() {
        let p = parse("data\n\ndata\ndata\n\n")
        #expect(datas(p) == ["", "\n"])
    }

    @Test func multiLineDataIsJoinedWithLF() {
        #expect(datas(parse("data: one\ndata: two\ndata:\ndata: three\n\n")) == ["one\ntwo\n\nthree"])
    }

    @Test func eventFieldSetsTheTypeAndDefaultsToMessage() {
        let p = parse("event: ping\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n")
        #expect(p.events.map(\.type) == ["ping", "message", "message"])
    }

    @Test func anIdContainingNULIsIgnored() {
        let p = parse("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\ndata: c\n\nid\ndata: d\n\n")
        #expect(p.events.map(\.lastEventID) == ["1", "1", "1", ""])
    }

    @Test func retryTakesASCIIDigitsOnly() {
        var parser = SSEParser()
        parser.feed(Array("retry: 1500\n\nretry: 12a\n\nretry: -5\n\nretry: \n\n".utf8)) { _ in }
        #expect(parser.reconnectionTime == 1500)
        parser.feed(Array("retry: 30\n\n".utf8)) { _ in }
        #expect(parser.reconnectionTime == 30)
    }

    @Test func anEventWithAnEmptyDataBufferIsNotDispatched() {
        let p = parse("event: x\n\nid: 5\n\ndata: y\n\n")
        #expect(p.events.count == 1)
        #expect(p.events[0].type == "message")  // the type of an undispatched event does not leak
        #expect(p.events[0].lastEventID == "5")
    }

    @Test func aTrailingEventWithoutABlankLineIsDiscardedAndReported() {
        let p = parse("data: a\n\ndata: b\n")
        #expect(datas(p) == ["a"])
        #expect(p.diagnostics == [.truncatedEvent])
        let q = parse("data: a\n\ndata: partial line")
        #expect(datas(q) == ["a"])
        #expect(q.diagnostics == [.truncatedEvent])
        #expect(parse("data: a\n\n").diagnostics.isEmpty)
    }

    @Test func unknownFieldsAreIgnored() {
        #expect(datas(parse("foo: bar\ndata: a\nDATA: b\n\n")) == ["a"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let bytes = Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8)
        #expect(datas(parse(bytes)) == ["a\u{FFFD}\u{FFFD}b"])
    }

    @Test func anOversizedEventIsDroppedWithAnErrorAndParsingGoesOn() {
        let big = String(repeating: "x", count: 5000)
        // Split across chunks (the line is collected) and whole (parsed in place).
        for chunk in [7, nil] {
            let p = parse("data: \(big)\n\ndata: ok\n\n", chunk: chunk, maximumEventBytes: 1000)
            #expect(datas(p) == ["ok"], "chunk \(String(describing: chunk))")
            #expect(p.diagnostics == [.eventTooLarge], "chunk \(String(describing: chunk))")
        }
        let lines = String(repeating: "data: 0123456789\n", count: 200)
        let q = parse(lines + "\ndata: after\n\n", maximumEventBytes: 1000)
        #expect(datas(q) == ["after"])
        #expect(q.diagnostics == [.eventTooLarge])
    }

    @Test func eventsCarryTheirNumberAndByteOffset() {
        let p = parse(": c\nevent: a\ndata: 1\n\ndata: 2\n\n")
        #expect(p.events.map(\.number) == [1, 2])
        #expect(p.events.map(\.byteOffset) == [0, 22])
    }
}
