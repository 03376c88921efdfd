import CICU

/// The Unicode properties of one scalar that segmentation and width need, read
/// from ICU in one call and packed into 32 bits.
///
/// ICU's property lookups are trie reads, but each is a call across the C shim;
/// one packed call per scalar keeps the non-ASCII path to a single crossing.
@usableFromInline
struct ScalarProperties: Sendable, Hashable {
    @usableFromInline let bits: UInt32

    @inlinable init(bits: UInt32) { self.bits = bits }

    /// - Complexity: O(1).
    @inlinable static func of(_ scalar: UInt32) -> ScalarProperties {
        ScalarProperties(bits: cicu_scalar_properties(scalar))
    }

    /// ``of(_:)`` from ICU, past the cache of recent scalars (tests compare the two).
    static func uncached(_ scalar: UInt32) -> ScalarProperties {
        ScalarProperties(bits: cicu_scalar_properties_uncached(scalar))
    }

    /// Whether UAX #14's rule LB9 attaches `scalar` to what precedes it: line-break class
    /// CM or ZWJ, or SA of category Mn or Mc (which LB1 makes CM). Cached with the rest
    /// (a run of bidi marks with marks after them asked ICU for each mark).
    ///
    /// - Complexity: O(1).
    static func joinsLineBefore(_ scalar: UInt32) -> Bool { of(scalar).joinsLineBefore }

    /// ``joinsLineBefore(_:)`` of this scalar.
    @inlinable var joinsLineBefore: Bool { bits & (1 << 22) != 0 }

    /// East Asian Width, as ICU numbers it: 0 N, 1 A, 2 H, 3 F, 4 Na, 5 W.
    @inlinable var eastAsianWidth: UInt32 { bits & 0x7 }
    @inlinable var isWideOrFullwidth: Bool { eastAsianWidth == 5 || eastAsianWidth == 3 }
    @inlinable var isAmbiguous: Bool { eastAsianWidth == 1 }

    /// ICU's UCharCategory.
    @inlinable var generalCategory: UInt32 { (bits >> 3) & 0x1F }

    @inlinable var isEmoji: Bool { bits & (1 << 8) != 0 }
    @inlinable var isEmojiPresentation: Bool { bits & (1 << 9) != 0 }
    @inlinable var isEmojiModifier: Bool { bits & (1 << 10) != 0 }
    @inlinable var isExtendedPictographic: Bool { bits & (1 << 11) != 0 }
    @inlinable var isRegionalIndicator: Bool { bits & (1 << 12) != 0 }
    @inlinable var isDefaultIgnorable: Bool { bits & (1 << 13) != 0 }
    @inlinable var isPrependedConcatenationMark: Bool { bits & (1 << 14) != 0 }
    @inlinable var isGraphemeExtend: Bool { bits & (1 << 15) != 0 }
    /// Hangul_Syllable_Type: 0 NA, 1 L, 2 V, 3 T, 4 LV, 5 LVT.
    @inlinable var hangulSyllableType: UInt32 { (bits >> 16) & 0x7 }
    /// The grapheme class the segmenter's fast path knows (`CICU_GCB_*`): 1 Other, 2
    /// Extend and 5 SpacingMark (neither a virama), 3 ZWJ, 4 Regional_Indicator, 6
    /// Control, 0 the rest.
    @inlinable var fastGraphemeClass: UInt32 { (bits >> 19) & 0x7 }

    // ICU UCharCategory values used by the width rules.
    @usableFromInline static let unassigned: UInt32 = 0         // Cn
    @usableFromInline static let nonSpacingMark: UInt32 = 6     // Mn
    @usableFromInline static let enclosingMark: UInt32 = 7      // Me
    @usableFromInline static let spacingMark: UInt32 = 8        // Mc
    @usableFromInline static let lineSeparator: UInt32 = 13     // Zl
    @usableFromInline static let paragraphSeparator: UInt32 = 14 // Zp
    @usableFromInline static let format: UInt32 = 16            // Cf
}

/// Versions of the ICU library StreamRender runs on.
public enum ICUInfo: Sendable {
    /// The Unicode version implemented by the linked ICU, e.g. "15.0".
    public static var unicodeVersion: String { read(cicu_unicode_version) }
    /// The linked ICU's version, e.g. "72.1".
    public static var icuVersion: String { read(cicu_icu_version) }

    /// Whether the linked ICU implements Unicode `version` ("15.0"): data generated
    /// from one ICU is used only with an ICU of its Unicode version.
    static func implementsUnicode(_ version: String) -> Bool {
        let linked = unicodeVersion
        return linked == version || linked.hasPrefix(version + ".")
    }

    private static func read(_ body: (UnsafeMutablePointer<CChar>, Int32) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32($0.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
