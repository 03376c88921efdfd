import Testing
@testable import StreamRender

/// Which cells the live views draw on a space (`LineDrawer.standalone`): decided from
/// ICU's properties (the segmenter's Unicode version), checked here against the
/// standard library's, written apart, for every scalar both know.
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

    @Test func cellsThatStartWithAMarkAreDrawnOnASpace() throws {
        let parts = ICUInfo.unicodeVersion.split(separator: ".").compactMap { Int($0) }
        let icu = (major: parts.first ?? 0, minor: parts.count > 1 ? parts[1] : 0)
        var marks = 0, checked = 0
        var newest = (major: 0, minor: 0)
        var differ: [(scalar: Unicode.Scalar, policy: WidthPolicy)] = []
        for value in UInt32(0x300)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age else { continue }
            if (age.major, age.minor) > (newest.major, newest.minor) { newest = (age.major, age.minor) }
            guard (age.major, age.minor) <= (icu.major, icu.minor) else { continue }
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let text = String(Character(scalar))
                let expected = Self.expectedNeedsBase(scalar, policy: policy)
                if LineDrawer.standalone(text, policy: policy) != (expected ? " " + text : text) { differ.append((scalar, policy)) }
                if expected { marks += 1 }
                checked += 1
            }
        }
        #expect(marks > 2_000 && checked > 250_000, "\(marks) of \(checked)")
        let described = differ.map { "U+\(String($0.scalar.value, radix: 16, uppercase: true)) \($0.policy.mode)" }
        if (newest.major, newest.minor) <= (icu.major, icu.minor) {
            #expect(differ.isEmpty, "\(described)")
        } else {
            // A newer standard library: Unicode 16 made spacing marks of a few dozen
            // (Kannada, Balinese, Javanese vowel signs, viramas) Grapheme_Extend, and one
            // mark spacing. Only the `wcwidth` rule for spacing marks reads that; ICU's
            // version stands, as in the segmenter.
            #expect(differ.count <= 40 && differ.allSatisfy { $0.policy.mode == .wcwidth && $0.scalar.properties.generalCategory == .spacingMark },
                    "\(described)")
        }
    }
}
