import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// The sanitiser's check for text that needs nothing (eight bytes at a time) never
/// lets a control through, wherever it falls in a word.
@Suite struct ControlSanitizerWordScanTests {
    static let controls: [(text: String, picture: String)] = [
        ("\u{0}", "\u{2400}"), ("\u{1}", "\u{2401}"), ("\u{1B}", "\u{241B}"), ("\u{1F}", "\u{241F}"),
        ("\u{7F}", "\u{2421}"), ("\u{85}", "\u{FFFD}"), ("\u{9B}", "\u{FFFD}"), ("\r", "\n"),
    ]

    @Test func aControlAtAnyOffsetIsReplaced() {
        for (control, picture) in Self.controls {
            for before in 0..<20 {
                // (A CR that ends the text waits for the next piece: it may start a CR LF.)
                for after in [0, 1, 7, 8, 9, 30] where !(control == "\r" && after == 0) {
                    // ASCII, then multi-byte text around it, so every word alignment is tried.
                    for filler in ["a", "é", "日"] {
                        let text = String(repeating: filler, count: before) + control + String(repeating: "b", count: after)
                        var sanitizer = ControlSanitizer()
                        var out = ""
                        sanitizer.sanitize(text, into: &out)
                        var bytes: [UInt8] = []
                        var again = ControlSanitizer()
                        again.sanitize(text, into: &bytes)
                        let expected = String(repeating: filler, count: before) + picture + String(repeating: "b", count: after)
                        #expect(out == expected && String(decoding: bytes, as: UTF8.self) == expected,
                                "\(control.unicodeScalars.first!.value) after \(before) \(filler)")
                    }
                }
            }
        }
    }

    @Test func textWithoutControlsIsUnchanged() {
        let text = "Line one\twith a tab,\nline two: ©°² and 日本語 and 👍🏽, \u{A0}no-break.\n"
        for length in 0...text.utf8.count {
            let piece = String(decoding: Array(text.utf8.prefix(length)), as: UTF8.self)
            var sanitizer = ControlSanitizer()
            var out = ""
            sanitizer.sanitize(piece, into: &out)
            #expect(out == piece)
        }
    }

    /// The one rule of what needs sanitising (``ControlSanitizer/isClean(_:tabs:lineFeeds:)``),
    /// against a check scalar by scalar: random text of controls, C1 controls, DEL, tabs,
    /// line ends and their neighbours (`°` and `²` share the C1 lead byte).
    @Test func isCleanAgreesWithAScalarCheck() {
        let seed = TestSeed.base(0x5A71_7E5)
        var rng = SeededGenerator(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", " ", "\t", "\n", "\r", "\u{0}", "\u{1B}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
                                          "\u{A0}", "°", "²", "©", "é", "日", "👍", "\u{7E}", "\u{1F}"]
        for _ in 0..<4000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &rng) {
                // Mostly clean text, so that clean words (eight bytes) come up.
                scalars.append(Int.random(in: 0..<4, using: &rng) == 0 ? alphabet.randomElement(using: &rng)! : "b")
            }
            var text = String(scalars)
            for tabs in [true, false] {
                for lineFeeds in [true, false] {
                    let expected = text.unicodeScalars.allSatisfy { s in
                        switch s.value {
                        case 0x0A: lineFeeds
                        case 0x09: tabs
                        case 0..<0x20, 0x7F, 0x80..<0xA0: false
                        default: true
                        }
                    }
                    let found = text.withUTF8 { ControlSanitizer.isClean($0, tabs: tabs, lineFeeds: lineFeeds) }
                    #expect(found == expected, "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) }) tabs \(tabs) lineFeeds \(lineFeeds)")
                }
            }
        }
    }
}
