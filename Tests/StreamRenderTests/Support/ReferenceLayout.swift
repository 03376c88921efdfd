@_spi(Benchmarks) @testable import StreamRender

/// A deliberately simple, non-incremental greedy layout used as the oracle for
/// ``ParagraphWrapper``: whole-paragraph ICU opportunities and clusters, and each
/// line chosen by looking at all of them.
///
/// A line from cluster s ends at the largest opportunity b (s < b <= o) where o is
/// the first non-space cluster that does not fit (spaces count towards the column
/// but never overflow); with none, before o (or o alone, as a replacement, when it
/// is wider than the line, or the first that would take the line past
/// `ParagraphWrapper.maximumLineBytes(width:)`, 24 bytes a column). A mandatory break always ends a line. Trailing spaces
/// are dropped at a wrap; at the paragraph's end only those past the edge are.
enum ReferenceLayout {
    static func lines(_ paragraph: [UInt8], settings: LayoutSettings, number: Int = 0) -> [VisualLine] {
        let clusters = GraphemeSegmenter.clusters(ofUTF8: paragraph, policy: settings.policy)
        var starts: [Int] = []
        var offset = 0
        for c in clusters {
            starts.append(offset)
            offset += c.cluster.utf8.count
        }
        starts.append(offset)
        let breaker = LineBreaker()
        var soft = Set<Int>(), hard = Set<Int>()
        paragraph.withUnsafeBufferPointer { buf in
            breaker.forEachOpportunity(in: buf) { at, isHard in
                if isHard { hard.insert(at) } else { soft.insert(at) }
            }
        }
        let n = clusters.count
        func isSpace(_ i: Int) -> Bool { clusters[i].cluster == " " }
        func isTab(_ i: Int) -> Bool { clusters[i].cluster == "\t" }
        var lines: [VisualLine] = []
        var s = 0
        while s < n {
            var limit = n
            for i in (s + 1)..<max(s + 1, n) where hard.contains(starts[i]) { limit = i; break }
            // Columns from s; o is the first non-space cluster that does not fit.
            var columnAfter: [Int] = []
            var column = 0
            var o = limit
            for i in s..<limit {
                if isSpace(i) {
                    column += 1
                } else if isTab(i) {
                    let w = settings.tabWidth(at: column)
                    if w <= 0 { o = i; break }
                    column += w
                } else {
                    let w = clusters[i].width
                    if column + w > settings.width { o = i; break }
                    // A line holds at most 24 bytes a column (marks and zero-width clusters).
                    if starts[i + 1] - starts[s] > ParagraphWrapper.maximumLineBytes(width: settings.width) { o = i; break }
                    column += w
                }
                columnAfter.append(column)
            }
            func line(_ from: Int, _ to: Int, trim: Bool) -> VisualLine {
                var k = to
                if trim { while k > from && isSpace(k - 1) { k -= 1 } }
                return VisualLine(paragraph: number, start: starts[from], end: starts[k],
                                  width: k > from ? columnAfter[k - 1 - from] : 0)
            }
            if o == limit {
                if limit == n {
                    var k = limit
                    while k > s && columnAfter[k - 1 - s] > settings.width { k -= 1 }
                    lines.append(line(s, k, trim: false))
                } else {
                    lines.append(line(s, limit, trim: true))
                }
                s = limit
                continue
            }
            if let b = stride(from: o, to: s, by: -1).first(where: { soft.contains(starts[$0]) || hard.contains(starts[$0]) }) {
                lines.append(line(s, b, trim: true))
                s = b
            } else if o == s {
                // A replacement fills its line; the spaces after it hang and are dropped.
                lines.append(VisualLine(paragraph: number, start: starts[s], end: starts[s + 1],
                                        width: settings.width, isReplacement: true))
                s += 1
                while s < limit && isSpace(s) { s += 1 }
            } else {
                lines.append(line(s, o, trim: true))
                s = o
            }
        }
        if n == 0 { lines.append(VisualLine(paragraph: number, start: 0, end: 0, width: 0)) }
        return lines
    }

    /// The reference lines of a whole text (sanitised like the document does).
    static func lines(of text: String, settings: LayoutSettings) -> [VisualLine] {
        var sanitizer = ControlSanitizer()
        var clean = sanitizer.sanitize(text)
        sanitizer.finish(into: &clean)
        var paragraphs = clean.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if paragraphs.last?.isEmpty == true { paragraphs.removeLast() }
        var result: [VisualLine] = []
        for (k, p) in paragraphs.enumerated() {
            result.append(contentsOf: lines(p, settings: settings, number: k))
        }
        return result
    }
}
