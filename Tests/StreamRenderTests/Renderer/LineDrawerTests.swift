import Testing
@testable import StreamRender

/// Which cells the live views draw on a space (`LineDrawer.standalone`): letters and
/// the like are told apart by ICU's cached properties, the rest by the standard
/// library's; checked here against the standard library's rule alone, written apart,
/// for every scalar (those ICU's Unicode does not know yet too: a newer terminal may
/// join a new mark to the cell before).
@Suite struct LineDrawerTests {
    static func expectedNeedsBase(_ scalar: Unicode.Scalar, policy: WidthPolicy) -> Bool {
        let value = scalar.value
        // Arrows, operators, shapes and the simple scalars hold no mark (nor does text below U+0300).
        if value < 0x300 || (0x2190...0x2BFF).contains(value) || SimpleText.width(of: value) != nil { return false }
        let p = scalar.properties
        let spacing = p.generalCategory == .spacingMark
        if policy.mode != .grapheme && spacing && !p.isGraphemeExtend { return false }
        return p.isGraphemeExtend || spacing || value == 0x200D
    }

    @Test func cellsThatStartWithAMarkAreDrawnOnASpace() {
        var marks = 0, checked = 0
        var differ: [String] = []
        for value in UInt32(0x300)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let text = String(Character(scalar))
                let expected = Self.expectedNeedsBase(scalar, policy: policy)
                if LineDrawer.standalone(text, policy: policy) != (expected ? " " + text : text) {
                    differ.append("U+\(String(value, radix: 16, uppercase: true)) \(policy.mode)")
                }
                if expected { marks += 1 }
                checked += 1
            }
        }
        #expect(differ.isEmpty, "\(differ.count): \(differ.prefix(40).joined(separator: ", "))")
        // (The Unicode 16 marks ICU 72 does not know, such as U+0897, among them.)
        #expect(LineDrawer.standalone("\u{0897}") == " \u{0897}" && LineDrawer.standalone("\u{0E33}") == "\u{0E33}")
        #expect(marks > 4_000 && checked > 2_000_000, "\(marks) of \(checked)")
    }
}
