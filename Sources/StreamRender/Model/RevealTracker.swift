/// Turns the pacer's counts into document positions: counts the answer's **units**
/// (grapheme clusters, and one per paragraph break) and finds where the n-th ends.
///
/// The final text (closed paragraphs, and the settled part of the open one) never
/// changes, so it is counted once, as it grows. What is not final (markdown's open
/// block, the open paragraph's last cluster) may be replaced by the next delta; it
/// is counted afresh each frame, at the same cost as rendering it.
struct RevealTracker {
    private let breaker = ICUBreaker(.character)

    /// Final text before this position is counted: `countedUnits` units.
    private var counted = TextPosition(paragraph: 0, offset: 0)
    private(set) var countedUnits = 0
    /// A revealed position inside the counted text and its units: where walks to the
    /// next reveal position start (it only moves forward).
    private var anchor = (position: TextPosition(paragraph: 0, offset: 0), units: 0)

    /// Units in the whole document: the counted final text plus the rest, counted now.
    ///
    /// - Complexity: amortized O(n) in the final bytes added since the last call, plus
    ///   O(t) in the text that is not final.
    mutating func total(in document: StyledDocument) -> Int {
        countFinal(in: document)
        var units = countedUnits
        walk(from: counted, in: document, limit: nil) { _, _ in
            units += 1
            return true
        }
        return units
    }

    /// The position after `units` units (at the end of the text if there are fewer);
    /// with `wholeWords`, moved on to the end of the word it falls in (at most
    /// `Pacer.Settings.maximumWordUnits` further, and never past the text received).
    /// Returns the position and the units before it.
    ///
    /// - Complexity: amortized O(u) in the units revealed since the last call, plus
    ///   O(t) in the text that is not final when the position is in it.
    mutating func position(after units: Int, wholeWords: Bool, in document: StyledDocument) -> (TextPosition, Int) {
        clampToHeldText(document)
        var position: TextPosition
        var reached: Int
        if anchor.units > units {
            return anchor  // cannot happen (final text never shrinks); shows more, never less
        } else if units <= countedUnits {
            (position, reached) = anchor
            walk(from: position, in: document, limit: counted) { next, _ in
                guard reached < units else { return false }
                position = next
                reached += 1
                return true
            }
            anchor = (position, reached)
        } else {
            position = counted
            reached = countedUnits
            walk(from: position, in: document, limit: nil) { next, _ in
                guard reached < units else { return false }
                position = next
                reached += 1
                return true
            }
        }
        guard wholeWords, reached == units, !isWordEnd(position, in: document) else { return (position, reached) }
        // On to the end of the word, if it has arrived.
        var end = position, extra = 0
        var found = false
        walk(from: position, in: document, limit: nil) { next, _ in
            end = next
            extra += 1
            if isWordEnd(next, in: document) { found = true; return false }
            return extra < Pacer.Settings.maximumWordUnits
        }
        return found ? (end, reached + extra) : (position, reached)
    }

    /// Whether a word ends at `position`: its paragraph ends there (and a break
    /// follows), or the next cluster is white space, or a wide script is on either
    /// side (CJK and emoji break anywhere). The end of the text received so far is
    /// not: the word may go on.
    private func isWordEnd(_ position: TextPosition, in document: StyledDocument) -> Bool {
        guard document.paragraphNumbers.contains(position.paragraph) else { return true }
        let text = document[paragraph: position.paragraph].text
        if position.offset >= text.count {
            return position.paragraph + 1 < document.paragraphNumbers.upperBound || document.isFinished
        }
        if position.offset == 0 { return false }
        let next = text[position.offset]
        if next == 0x20 || next == 0x09 { return true }
        // A lead byte of three or four bytes from U+3000 on (most CJK, emoji).
        return next >= 0xE3 || Self.endsWide(text, before: position.offset)
    }

    /// Whether the scalar ending at `offset` is a three- or four-byte one from U+3000
    /// on (CJK, emoji).
    private static func endsWide(_ text: [UInt8], before offset: Int) -> Bool {
        var k = offset - 1
        while k > 0 && text[k] & 0xC0 == 0x80 { k -= 1 }
        return text[k] >= 0xE3
    }

    // MARK: - Counting

    /// The end of the final text: where markdown's provisional text starts, else the
    /// end of the document (whose last cluster may still grow unless it is finished).
    private func finalEnd(_ document: StyledDocument) -> TextPosition {
        if let start = document.provisionalStart { return TextPosition(paragraph: start, offset: document.provisionalOffset) }
        return document.endPosition
    }

    private mutating func countFinal(in document: StyledDocument) {
        clampToHeldText(document)
        let end = finalEnd(document)
        while counted < end {
            let number = counted.paragraph
            let whole = number < end.paragraph
            let stop = whole ? document[paragraph: number].text.count : end.offset
            let settled = whole || document.isFinished
            var consumed = 0
            document.withText(ofParagraph: number) { text, _ in
                let run = UnsafeBufferPointer(rebasing: text[counted.offset..<stop])
                consumed = GraphemeSegmenter.segment(run, final: settled, fast: true, policy: .grapheme,
                                                     breaker: breaker) { piece, _, isASCIIRun in
                    countedUnits += isASCIIRun ? piece.count : 1
                }
            }
            counted.offset += consumed
            guard whole, counted.offset == stop else { break }
            countedUnits += 1  // the paragraph break
            counted = TextPosition(paragraph: number + 1, offset: 0)
        }
    }

    /// History evicted paragraphs the walk positions were in: they start again at
    /// the first paragraph held, with its units counted back from `counted`.
    private mutating func clampToHeldText(_ document: StyledDocument) {
        let first = document.firstParagraph
        guard anchor.position.paragraph < first || counted.paragraph < first else { return }
        if counted.paragraph < first {
            counted = TextPosition(paragraph: first, offset: 0)
            anchor = (counted, countedUnits)
            return
        }
        // Units from the first held paragraph to `counted` (rare: the reveal fell a
        // whole history behind).
        var units = 0
        let start = TextPosition(paragraph: first, offset: 0)
        walk(from: start, in: document, limit: counted) { _, _ in
            units += 1
            return true
        }
        anchor = (start, countedUnits - units)
    }

    /// Calls `step` with the position after each unit from `start` (each cluster, and
    /// each paragraph break) until `limit` (or the end of the document), while it
    /// returns true. The text's last cluster counts as a unit.
    private func walk(from start: TextPosition, in document: StyledDocument, limit: TextPosition?,
                      _ step: (TextPosition, Bool) -> Bool) {
        var p = start.paragraph, offset = start.offset
        let last = document.paragraphNumbers.upperBound - 1
        let end = limit ?? document.endPosition
        guard document.paragraphNumbers.contains(p) else { return }
        while p <= end.paragraph {
            let stop = p == end.paragraph ? min(end.offset, document[paragraph: p].text.count)
                                          : document[paragraph: p].text.count
            var going = true
            if offset < stop {
                // In windows, so a walk of a few units does not segment a long paragraph.
                var window = 256
                while going && offset < stop {
                    window *= 2
                    var consumed = 0
                    document.withText(ofParagraph: p) { text, _ in
                        // A window ends at a scalar boundary (the segmenter reads whole scalars).
                        var upTo = min(stop, offset + window / 2)
                        while upTo < stop && text[upTo] & 0xC0 == 0x80 { upTo += 1 }
                        let run = UnsafeBufferPointer(rebasing: text[offset..<upTo])
                        consumed = GraphemeSegmenter.segment(run, final: upTo == stop, fast: true, policy: .grapheme,
                                                             breaker: breaker) { piece, _, isASCIIRun in
                            guard going else { return }
                            if isASCIIRun {
                                for k in 1...piece.count where going {
                                    going = step(TextPosition(paragraph: p, offset: offset + (piece.baseAddress! - run.baseAddress!) + k), false)
                                }
                            } else {
                                let after = offset + (piece.baseAddress! - run.baseAddress!) + piece.count
                                going = step(TextPosition(paragraph: p, offset: after), false)
                            }
                        }
                    }
                    if !going { return }
                    offset += consumed
                }
            }
            if !going { return }
            // The break to the next paragraph, when there is one within the limit.
            guard p < end.paragraph, p < last else { return }
            p += 1
            offset = 0
            if !step(TextPosition(paragraph: p, offset: 0), true) { return }
        }
    }
}
