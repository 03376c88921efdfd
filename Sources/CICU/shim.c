#include "CICU.h"

#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

struct cicu_breaker {
    UBreakIterator *iterator;
    int32_t kind;
};

cicu_breaker *cicu_breaker_open(int32_t kind) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIteratorType type = kind == CICU_BREAK_LINE ? UBRK_LINE : UBRK_CHARACTER;
    UBreakIterator *iterator = ubrk_open(type, "", NULL, 0, &status);
    if (U_FAILURE(status) || iterator == NULL) {
        return NULL;
    }
    cicu_breaker *breaker = malloc(sizeof *breaker);
    if (breaker == NULL) {
        ubrk_close(iterator);
        return NULL;
    }
    breaker->iterator = iterator;
    breaker->kind = kind;
    return breaker;
}

void cicu_breaker_close(cicu_breaker *breaker) {
    if (breaker == NULL) return;
    ubrk_close(breaker->iterator);
    free(breaker);
}

int32_t cicu_breaker_boundaries(cicu_breaker *breaker,
                                const uint16_t *text, int32_t length,
                                int32_t *boundaries, uint8_t *hard,
                                int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    // The iterator keeps a pointer to text; callers keep it alive for this call only.
    ubrk_setText(breaker->iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    ubrk_first(breaker->iterator);
    for (int32_t b = ubrk_next(breaker->iterator); b != UBRK_DONE; b = ubrk_next(breaker->iterator)) {
        if (count >= capacity) return -1;
        boundaries[count] = b;
        if (hard != NULL) {
            int32_t rule = ubrk_getRuleStatus(breaker->iterator);
            hard[count] = (breaker->kind == CICU_BREAK_LINE && rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        }
        count++;
    }
    // Release the pointer so a stale buffer can never be read by a later call.
    status = U_ZERO_ERROR;
    ubrk_setText(breaker->iterator, NULL, 0, &status);
    return count;
}

/* The properties of recent scalars, per thread: nine ICU lookups a scalar were a
   sixth of laying out emoji text, whose scalars repeat (so do an alphabet's). Two
   ways a set, by a multiplicative hash: with one way and `scalar ^ scalar >> 9`,
   U+200F and U+061C (bidi marks) took one slot and evicted each other. */
enum { CICU_PROP_CACHE_SETS = 256 };
static _Thread_local struct { uint32_t key; uint32_t bits; } cicu_prop_cache[CICU_PROP_CACHE_SETS][2];

uint32_t cicu_scalar_properties(uint32_t scalar) {
    /* key is the scalar + 1: a zeroed slot holds no scalar. */
    uint32_t set = (scalar * 0x9E3779B1u) >> 24;
    if (cicu_prop_cache[set][0].key == scalar + 1) return cicu_prop_cache[set][0].bits;
    if (cicu_prop_cache[set][1].key == scalar + 1) return cicu_prop_cache[set][1].bits;
    uint32_t bits = cicu_scalar_properties_uncached(scalar);
    /* The newest first; the one it replaces there moves to the second way. */
    cicu_prop_cache[set][1] = cicu_prop_cache[set][0];
    cicu_prop_cache[set][0].key = scalar + 1;
    cicu_prop_cache[set][0].bits = bits;
    return bits;
}

int32_t cicu_joins_line_before(uint32_t scalar) {
    UChar32 c = (UChar32)scalar;
    switch (u_getIntPropertyValue(c, UCHAR_LINE_BREAK)) {
    case U_LB_COMBINING_MARK: case U_LB_ZWJ: return 1;
    case U_LB_COMPLEX_CONTEXT: {
        int8_t category = u_charType(c);
        return category == U_NON_SPACING_MARK || category == U_COMBINING_SPACING_MARK;
    }
    default: return 0;
    }
}

uint32_t cicu_scalar_properties_uncached(uint32_t scalar) {
    UChar32 c = (UChar32)scalar;
    uint32_t bits = 0;
    bits |= (uint32_t)u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH) & CICU_PROP_EAW_MASK;
    bits |= ((uint32_t)u_charType(c) & CICU_PROP_GC_MASK) << CICU_PROP_GC_SHIFT;
    if (u_hasBinaryProperty(c, UCHAR_EMOJI)) bits |= CICU_PROP_EMOJI;
    if (u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION)) bits |= CICU_PROP_EMOJI_PRESENTATION;
    if (u_hasBinaryProperty(c, UCHAR_EMOJI_MODIFIER)) bits |= CICU_PROP_EMOJI_MODIFIER;
    if (u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC)) bits |= CICU_PROP_EXTENDED_PICTO;
    if (u_hasBinaryProperty(c, UCHAR_REGIONAL_INDICATOR)) bits |= CICU_PROP_REGIONAL_INDICATOR;
    if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) bits |= CICU_PROP_DEFAULT_IGNORABLE;
    if (u_hasBinaryProperty(c, UCHAR_PREPENDED_CONCATENATION_MARK)) bits |= CICU_PROP_PREPENDED_CONCAT;
    if (u_hasBinaryProperty(c, UCHAR_GRAPHEME_EXTEND)) bits |= CICU_PROP_GRAPHEME_EXTEND;
    bits |= ((uint32_t)u_getIntPropertyValue(c, UCHAR_HANGUL_SYLLABLE_TYPE) & CICU_PROP_HST_MASK) << CICU_PROP_HST_SHIFT;
    uint32_t gcb = CICU_GCB_UNKNOWN;
    switch (u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK)) {
    case U_GCB_OTHER: gcb = CICU_GCB_OTHER; break;
    case U_GCB_EXTEND: gcb = u_getCombiningClass(c) == 9 ? CICU_GCB_UNKNOWN : CICU_GCB_EXTEND; break;
    case U_GCB_SPACING_MARK: gcb = u_getCombiningClass(c) == 9 ? CICU_GCB_UNKNOWN : CICU_GCB_SPACING_MARK; break;
    case U_GCB_ZWJ: gcb = CICU_GCB_ZWJ; break;
    case U_GCB_REGIONAL_INDICATOR: gcb = CICU_GCB_REGIONAL_INDICATOR; break;
    case U_GCB_CONTROL: gcb = CICU_GCB_CONTROL; break;
    default: break;
    }
    bits |= gcb << CICU_PROP_GCB_SHIFT;
    if (cicu_joins_line_before(scalar)) bits |= CICU_PROP_JOINS_LINE_BEFORE;
    return bits;
}

void cicu_unicode_version(char *buffer, int32_t capacity) {
    UVersionInfo info;
    u_getUnicodeVersion(info);
    if (capacity >= U_MAX_VERSION_STRING_LENGTH) u_versionToString(info, buffer);
    else if (capacity > 0) buffer[0] = 0;
}

void cicu_icu_version(char *buffer, int32_t capacity) {
    UVersionInfo info;
    u_getVersion(info);
    if (capacity >= U_MAX_VERSION_STRING_LENGTH) u_versionToString(info, buffer);
    else if (capacity > 0) buffer[0] = 0;
}
