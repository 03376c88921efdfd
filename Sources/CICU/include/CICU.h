// CICU: an opaque C shim over the system ICU (libicuuc).
//
// Only <stdint.h> types cross this header. ICU renames its symbols with a version
// suffix through macros (ubrk_open -> ubrk_open_72), which Swift cannot call, and
// ICU's headers clash with Foundation's bundled ICU, so every ICU call lives in
// shim.c and every function here carries the cicu_ prefix.
#ifndef CICU_H
#define CICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Kinds of break iterator.
enum {
    CICU_BREAK_CHARACTER = 0,  ///< extended grapheme clusters (UAX #29)
    CICU_BREAK_LINE = 1        ///< line-break opportunities (UAX #14)
};

typedef struct cicu_breaker cicu_breaker;

/// Opens a reusable break iterator of `kind` for the root locale.
/// Returns NULL when ICU reports a failure.
cicu_breaker *cicu_breaker_open(int32_t kind);

/// Closes a break iterator opened by `cicu_breaker_open`.
void cicu_breaker_close(cicu_breaker *breaker);

/// Sets `text` (UTF-16, `length` code units) and writes every boundary after 0, in
/// order and including `length`, into `boundaries`. For a line breaker, `hard[i]`
/// is 1 when boundary i is a mandatory break (hard may be NULL for a character
/// breaker). `capacity` must be at least `length`. Returns the number written,
/// or -1 on an ICU error.
int32_t cicu_breaker_boundaries(cicu_breaker *breaker,
                                const uint16_t *text, int32_t length,
                                int32_t *boundaries, uint8_t *hard,
                                int32_t capacity);

/// Property bits of one code point, packed (see CICU_PROP_* below); recent answers
/// are kept in a small per-thread cache.
uint32_t cicu_scalar_properties(uint32_t scalar);
/// ``cicu_scalar_properties`` from ICU each time, past the cache (tests compare them).
uint32_t cicu_scalar_properties_uncached(uint32_t scalar);

/// 1 when UAX #14's LB9 attaches `scalar` to what comes before it: line-break class CM
/// or ZWJ, or SA with general category Mn or Mc (which LB1 resolves to CM); else 0.
int32_t cicu_joins_line_before(uint32_t scalar);

#define CICU_PROP_EAW_MASK            0x7u        ///< UEastAsianWidth: 0 N, 1 A, 2 H, 3 F, 4 Na, 5 W
#define CICU_PROP_GC_SHIFT            3           ///< UCharCategory, 5 bits
#define CICU_PROP_GC_MASK             0x1Fu
#define CICU_PROP_EMOJI               (1u << 8)
#define CICU_PROP_EMOJI_PRESENTATION  (1u << 9)
#define CICU_PROP_EMOJI_MODIFIER      (1u << 10)
#define CICU_PROP_EXTENDED_PICTO      (1u << 11)
#define CICU_PROP_REGIONAL_INDICATOR  (1u << 12)
#define CICU_PROP_DEFAULT_IGNORABLE   (1u << 13)
#define CICU_PROP_PREPENDED_CONCAT    (1u << 14)
#define CICU_PROP_GRAPHEME_EXTEND     (1u << 15)
#define CICU_PROP_HST_SHIFT           16          ///< UHangulSyllableType: 0 NA, 1 L, 2 V, 3 T, 4 LV, 5 LVT
#define CICU_PROP_HST_MASK            0x7u
#define CICU_PROP_GCB_SHIFT           19          ///< the fast grapheme class, 3 bits (CICU_GCB_*)
#define CICU_PROP_GCB_MASK            0x7u
#define CICU_PROP_JOINS_LINE_BEFORE   (1u << 22)  ///< cicu_joins_line_before's answer (UAX #14's LB9)
/// Grapheme_Cluster_Break as the segmenter's fast path uses it: Other; Extend and
/// SpacingMark that are not viramas (canonical combining class 9: Unicode 15.1's
/// conjunct rule GB9c joins across a virama); ZWJ; Regional_Indicator; anything
/// else (controls, Prepend, Hangul jamo, viramas) is 0 and goes to ICU.
#define CICU_GCB_UNKNOWN              0u
#define CICU_GCB_OTHER                1u
#define CICU_GCB_EXTEND               2u
#define CICU_GCB_ZWJ                  3u
#define CICU_GCB_REGIONAL_INDICATOR   4u
#define CICU_GCB_SPACING_MARK         5u
#define CICU_GCB_CONTROL              6u          ///< not ASCII: a bidi mark, U+00AD, U+2028...

/// The Unicode version ICU implements, as "major.minor.micro", in `buffer`.
void cicu_unicode_version(char *buffer, int32_t capacity);

/// ICU's own version, e.g. "72.1", in `buffer`.
void cicu_icu_version(char *buffer, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
