import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct UTF8RepairTests {
    func repaired(_ bytes: [UInt8], chunk: Int? = nil) -> [UInt8] {
        var repair = UTF8Repair()
        var out: [UInt8] = []
        if let chunk {
            var i = 0
            while i < bytes.count {
                repair.repair(bytes[i..<min(bytes.count, i + chunk)], into: &out)
                i += chunk
            }
        } else {
            repair.repair(bytes, into: &out)
        }
        repair.finish(into: &out)
        return out
    }

    @Test func maximalSubpartsBecomeOneReplacementEach() {
        // The example of Unicode 15 section 3.9 (table 3-8) and the WHATWG decoder.
        let input: [UInt8] = [0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64]
        let expected = Array("a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d".utf8)
        #expect(repaired(input) == expected)
        #expect(repaired(input, chunk: 1) == expected)
    }

    @Test func surrogatesOverlongsAndOutOfRangeAreReplaced() {
        #expect(repaired([0xED, 0xA0, 0x80]) == Array("\u{FFFD}\u{FFFD}\u{FFFD}".utf8))
        #expect(repaired([0xC0, 0xAF]) == Array("\u{FFFD}\u{FFFD}".utf8))
        #expect(repaired([0xF4, 0x90, 0x80, 0x80]) == Array("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}".utf8))
        #expect(repaired([0xF0, 0x9F, 0x98]) == Array("\u{FFFD}".utf8))  // truncated at the end
    }

    /// Swift's own decoder also follows the maximal-subpart practice: agree with it
    /// on random bytes in random chunkings.
    @Test func agreesWithSwiftsDecoderOnRandomBytesInAnyChunking() {
        let seed = TestSeed.base(0x5EED_0003)
        var rng = SeededGenerator(seed: seed)
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F, 0x90, 0x8F]
        for iteration in 0..<5_000 {
            let length = Int.random(in: 0...20, using: &rng)
            let bytes = (0..<length).map { _ in Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng) }
            let expected = Array(String(decoding: bytes, as: UTF8.self).utf8)
            var repair = UTF8Repair()
            var out: [UInt8] = []
            for chunk in randomChunks(bytes, using: &rng, maxChunk: 4) { repair.repair(chunk, into: &out) }
            repair.finish(into: &out)
            if out != expected {
                Issue.record("seed \(seed) iteration \(iteration): \(bytes) gave \(out), expected \(expected)")
                return
            }
        }
    }

    /// `validString` (one validation for a valid chunk, a character cut by its end held
    /// back) with the repair for the chunks it declines: the same text as Swift's
    /// decoder in any chunking, of mostly valid text with a few bad bytes.
    @Test func validStringsAndRepairsAgreeWithSwiftsDecoderInAnyChunking() {
        let seed = TestSeed.base(0x5EED_0004)
        var rng = SeededGenerator(seed: seed)
        let scalars: [Unicode.Scalar] = ["a", " ", "é", "—", "世", "😀", "\u{301}", "\u{10FFFF}"]
        let bad: [UInt8] = [0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        var fast = 0
        for iteration in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                if Int.random(in: 0..<10, using: &rng) == 0 {
                    bytes.append(bad.randomElement(using: &rng)!)
                } else {
                    bytes += Array(String(scalars.randomElement(using: &rng)!).utf8)
                }
            }
            let expected = Array(String(decoding: bytes, as: UTF8.self).utf8)
            var repair = UTF8Repair()
            var out: [UInt8] = []
            for chunk in randomChunks(bytes, using: &rng, maxChunk: 6) {
                let text = Array(chunk).withUnsafeBufferPointer { repair.validString($0) }
                if let text {
                    out += text.utf8
                    fast += 1
                } else {
                    repair.repair(chunk, into: &out)
                }
            }
            repair.finish(into: &out)
            if out != expected {
                Issue.record("seed \(seed) iteration \(iteration): \(bytes) gave \(out), expected \(expected)")
                return
            }
        }
        #expect(fast > 5_000, "the validation took \(fast) chunks")
    }
}

/// ``UTF8Validation`` against the standard library's check, which it replaces for text
/// input: a string made from bytes it passed is not checked again, so a byte it wrongly
/// passes would make an ill-formed `String`.
@Suite struct UTF8ValidationTests {
    func agrees(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buf in
            let (valid, ascii) = UTF8Validation.check(buf)
            let swift = String(validating: buf, as: UTF8.self)
            guard valid == (swift != nil) else { return false }
            guard valid else { return UTF8Validation.string(buf) == nil }
            guard ascii == bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            return UTF8Validation.string(buf).map { Array($0.utf8) == bytes && $0 == swift } ?? false
        }
    }

    /// Every lead byte with every second byte (the ranges of table 3-7 are decided
    /// there), then continuation bytes at the edges of their range, ASCII, or nothing;
    /// at each offset in an eight-byte word of ASCII around it.
    @Test func everyLeadAndSecondByteAgreeWithTheStandardLibrary() {
        var failures: [[UInt8]] = []
        for lead in 0...255 {
            for second in 0...255 {
                for tail: [UInt8] in [[], [0x80], [0xBF], [0x80, 0xBF], [0xBF, 0x80], [0x41], [0x80, 0x41], [0xC0, 0x80]] {
                    let sequence = [UInt8(lead), UInt8(second)] + tail
                    if !agrees(sequence) { failures.append(sequence) }
                    // (In and across the eight-byte words the ASCII check reads.)
                    let offset = (lead + second) % 9
                    if !agrees(Array(repeating: 0x61, count: offset) + sequence + Array(repeating: 0x62, count: 9)) {
                        failures.append(sequence)
                    }
                }
            }
        }
        let disagreeing = failures.count
        #expect(disagreeing == 0, "disagree with the standard library: \(failures.prefix(10))")
    }

    /// Random text of ASCII runs, characters of every length and bad bytes, at random
    /// places in the words: the same verdict, the same string.
    @Test func randomTextAgreesWithTheStandardLibrary() {
        let seed = TestSeed.base(0x5EED_0005)
        var rng = SeededGenerator(seed: seed)
        let scalars: [Unicode.Scalar] = ["a", " ", "é", "\u{7FF}", "\u{800}", "—", "\u{D7FF}", "\u{E000}", "世", "\u{FFFF}",
                                         "\u{10000}", "😀", "\u{10FFFF}"]
        let bad: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        var valid = 0
        for iteration in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                switch Int.random(in: 0..<20, using: &rng) {
                case 0: bytes.append(bad.randomElement(using: &rng)!)
                case 1...8: bytes += Array(repeating: 0x78, count: Int.random(in: 1...17, using: &rng))
                default: bytes += Array(String(scalars.randomElement(using: &rng)!).utf8)
                }
            }
            if Int.random(in: 0..<10, using: &rng) == 0, !bytes.isEmpty { bytes.removeLast() }  // (a character cut)
            guard agrees(bytes) else {
                Issue.record("seed \(seed) iteration \(iteration): \(bytes) judged otherwise than by the standard library")
                return
            }
            if String(validating: bytes, as: UTF8.self) != nil { valid += 1 }
        }
        #expect(valid > 5_000 && valid < 19_000, "valid: \(valid) of 20000")
    }
}
