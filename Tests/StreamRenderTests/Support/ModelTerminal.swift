@_spi(Benchmarks) @testable import StreamRender

/// A small VT interpreter of every sequence the ANSI encoder emits, parameterised by
/// the width policy: the oracle the encoder's bytes are checked against.
///
/// It models deferred wrap (writing the last column leaves the cursor there with a
/// wrap pending; the next printable wraps, scrolling at the bottom), LF scrolling
/// into a scrollback, CUU/CUD/CUF/CUB clamped to the screen, CUP, EL 0, SGR (with
/// 22 clearing bold and dim), OSC 8 links, SU, DECSTBM scroll regions, the alternate
/// screen, modes 2026/25 (accepted, no effect), DECAWM, and cursor position reports (answered
/// in ``replies``). Anything else is recorded in
/// ``unknown`` so a test can fail on it. Writing a wide cluster in the last column is
/// recorded in ``violations``.
struct ModelTerminal {
    private(set) var width: Int
    let height: Int
    let policy: WidthPolicy
    var screen: Frame
    var styles = StyleTable()
    var scrollback: [String] = []
    var row = 0
    var column = 0
    var wrapPending = false
    var pen = Style.plain
    /// One splitter (it owns an ICU iterator: opening one per piece of text was a tenth
    /// of the markdown final-frame tests) and the last style interned.
    private let splitter: CellSplitter
    private var lastStyle: (style: Style, id: StyleID)?
    /// DECSC: the cursor and pen saved by `ESC 7`.
    var saved: (row: Int, column: Int, pen: Style)?
    var link: String? = nil
    var scrollTop = 0
    var scrollBottom: Int
    var alternate: Frame? = nil
    var unknown: [String] = []
    var violations: [String] = []
    var synchronizedDepth = 0
    /// What the terminal answered (cursor position reports to `CSI 6n`).
    var replies: [UInt8] = []
    /// DECAWM (mode 7): off, text at the right edge overwrites the last column.
    var autowrap = true
    private var pendingText: [UInt8] = []

    init(width: Int, height: Int, policy: WidthPolicy = .grapheme) {
        self.width = width
        self.height = height
        self.policy = policy
        screen = Frame(width: width, height: height)
        scrollBottom = height - 1
        splitter = CellSplitter(policy: policy)
    }

    mutating func apply(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                flushText()
                i = escape(bytes, i)
            } else if b == 0x0D {
                flushText()
                column = 0
                wrapPending = false
                i += 1
            } else if b == 0x0A {
                flushText()
                lineFeed()
                i += 1
            } else if b < 0x20 || b == 0x7F {
                flushText()
                unknown.append("control \(b)")
                i += 1
            } else {
                pendingText.append(b)
                i += 1
            }
        }
        flushText()
    }

    private mutating func flushText() {
        if pendingText.isEmpty { return }
        let text = pendingText
        pendingText = []
        for (cell, w) in splitter.cells(of: String(decoding: text, as: UTF8.self)) {
            printCluster(cell, width: w)
        }
    }

    private mutating func printCluster(_ cluster: String, width w: Int) {
        if w == 0 { unknown.append("zero-width cluster \(cluster.debugDescription)"); return }
        if wrapPending {
            column = 0
            wrapPending = false
            lineFeed()
        }
        if w == 2 && column == width - 1 {
            if !autowrap { return }  // no room, and nowhere to wrap to: not drawn
            violations.append("wide cluster \(cluster) written in the last column of row \(row)")
            column = 0
            lineFeed()
        }
        let style = Style(foreground: pen.foreground, background: pen.background, attributes: pen.attributes, hyperlink: link)
        let id: StyleID
        if let last = lastStyle, last.style == style { id = last.id } else {
            id = styles.intern(style)
            lastStyle = (style, id)
        }
        screen.put(cluster, width: min(w, 2), style: id, row: row, column: column)
        column += w
        if column >= width {
            column = width - 1
            wrapPending = autowrap
        }
    }

    private mutating func lineFeed() {
        if row == scrollBottom {
            scroll(1)
        } else if row < height - 1 {
            row += 1
        }
    }

    /// Scrolls the scroll region up by `n`; the top line goes to the scrollback when
    /// the region starts at the top of the main screen.
    private mutating func scroll(_ n: Int) {
        for _ in 0..<n {
            if scrollTop == 0 && alternate == nil { scrollback.append(screen.text(row: 0)) }
            if scrollTop == 0 && scrollBottom == height - 1 {
                screen = screen.scrolledUp(by: 1)  // the whole screen: rows move whole, as below
                continue
            }
            var next = screen
            for r in scrollTop..<scrollBottom {
                next.clear(row: r)
                for c in 0..<width {
                    let cell = screen[r + 1, c]
                    if cell.isContinuation { continue }
                    next.put(cell.text, width: Int(cell.width), style: cell.style, row: r, column: c)
                }
            }
            next.clear(row: scrollBottom)
            screen = next
        }
    }

    private mutating func escape(_ bytes: [UInt8], _ start: Int) -> Int {
        guard start + 1 < bytes.count else { unknown.append("lone ESC"); return start + 1 }
        let kind = bytes[start + 1]
        if kind == UInt8(ascii: "[") {
            var j = start + 2
            var params = ""
            while j < bytes.count && !(bytes[j] >= 0x40 && bytes[j] <= 0x7E) {
                params.append(Character(UnicodeScalar(bytes[j])))
                j += 1
            }
            guard j < bytes.count else { unknown.append("unterminated CSI"); return j }
            csi(params, bytes[j])
            return j + 1
        }
        if kind == UInt8(ascii: "]") {
            var j = start + 2
            var body: [UInt8] = []
            while j < bytes.count {
                if bytes[j] == 0x07 { j += 1; break }
                if bytes[j] == 0x1B && j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: "\\") { j += 2; break }
                body.append(bytes[j])
                j += 1
            }
            let text = String(decoding: body, as: UTF8.self)
            if text.hasPrefix("8;") {
                let parts = text.split(separator: ";", maxSplits: 2, omittingEmptySubsequences: false)
                let url = parts.count == 3 ? String(parts[2]) : ""
                link = url.isEmpty ? nil : url
            } else {
                unknown.append("OSC \(text)")
            }
            return j
        }
        if kind == UInt8(ascii: "7") {  // DECSC
            saved = (row, column, pen)
            return start + 2
        }
        if kind == UInt8(ascii: "8") {  // DECRC
            if let saved { (row, column, pen) = saved }
            wrapPending = false
            return start + 2
        }
        unknown.append("ESC \(kind)")
        return start + 2
    }

    private mutating func csi(_ params: String, _ final: UInt8) {
        let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func n(_ k: Int, _ fallback: Int = 1) -> Int {
            k < numbers.count ? (numbers[k].map { $0 == 0 ? fallback : $0 } ?? fallback) : fallback
        }
        switch final {
        case UInt8(ascii: "A"): row = max(scrollTopFor(row), row - n(0)); wrapPending = false
        case UInt8(ascii: "B"): row = min(scrollBottomFor(row), row + n(0)); wrapPending = false
        case UInt8(ascii: "C"): column = min(width - 1, column + n(0)); wrapPending = false
        case UInt8(ascii: "D"): column = max(0, column - n(0)); wrapPending = false
        case UInt8(ascii: "H"):
            row = min(height - 1, n(0) - 1)
            column = min(width - 1, n(1) - 1)
            wrapPending = false
        case UInt8(ascii: "K"):
            guard params.isEmpty || params == "0" else { unknown.append("EL \(params)"); return }
            let id = styles.intern(Style(background: pen.background))
            for c in column..<width {
                if screen[row, c].isContinuation && c == column && c > 0 {
                    screen.put(" ", width: 1, style: .plain, row: row, column: c - 1)
                }
                screen.put(" ", width: 1, style: id, row: row, column: c)
            }
        case UInt8(ascii: "J"):
            // ED 0: from the cursor to the end of the screen; ED 2: everything.
            if params == "2" {
                screen = Frame(width: width, height: height)
            } else if params.isEmpty || params == "0" {
                for c in column..<width { screen.put(" ", width: 1, style: .plain, row: row, column: c) }
                for r in (row + 1)..<max(row + 1, height) { screen.clear(row: r) }
            } else {
                unknown.append("ED \(params)")
            }
        case UInt8(ascii: "S"): scroll(n(0))
        case UInt8(ascii: "r"):
            scrollTop = n(0) - 1
            scrollBottom = min(height, n(1, height)) - 1
            row = 0
            column = 0
            wrapPending = false
        case UInt8(ascii: "m"): sgr(params)
        case UInt8(ascii: "n") where params == "6":
            // CPR: 1-based; a pending wrap leaves the cursor on the last column.
            replies += Array("\u{1B}[\(row + 1);\(column + 1)R".utf8)
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let set = final == UInt8(ascii: "h")
            switch params {
            case "?2026": synchronizedDepth += set ? 1 : -1
            case "?25": break
            case "?7": autowrap = set
            case "?1049":
                if set {
                    alternate = screen
                    screen = Frame(width: width, height: height)
                } else if let saved = alternate {
                    screen = saved
                    alternate = nil
                }
            default: unknown.append("mode \(params)")
            }
        default:
            unknown.append("CSI \(params)\(Character(UnicodeScalar(final)))")
        }
    }

    private func scrollTopFor(_ r: Int) -> Int { r >= scrollTop ? scrollTop : 0 }
    private func scrollBottomFor(_ r: Int) -> Int { r <= scrollBottom ? scrollBottom : height - 1 }

    private mutating func sgr(_ params: String) {
        let codes = params.isEmpty ? [0] : params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var k = 0
        while k < codes.count {
            let c = codes[k]
            switch c {
            case 0: pen = .plain
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 3: pen.attributes.insert(.italic)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.inverse)
            case 8: break  // conceal (the width calibration's samples): drawn as usual here
            case 9: pen.attributes.insert(.strikethrough)
            case 22: pen.attributes.subtract([.bold, .dim])
            case 23: pen.attributes.remove(.italic)
            case 24: pen.attributes.remove(.underline)
            case 27: pen.attributes.remove(.inverse)
            case 29: pen.attributes.remove(.strikethrough)
            case 30...37: pen.foreground = .ansi(UInt8(c - 30))
            case 39: pen.foreground = .default
            case 40...47: pen.background = .ansi(UInt8(c - 40))
            case 49: pen.background = .default
            case 90...97: pen.foreground = .ansi(UInt8(c - 90 + 8))
            case 100...107: pen.background = .ansi(UInt8(c - 100 + 8))
            case 38, 48:
                let color: StyleColor
                if k + 2 < codes.count && codes[k + 1] == 5 {
                    color = .palette(UInt8(codes[k + 2]))
                    k += 2
                } else if k + 4 < codes.count && codes[k + 1] == 2 {
                    color = .rgb(UInt8(codes[k + 2]), UInt8(codes[k + 3]), UInt8(codes[k + 4]))
                    k += 4
                } else {
                    unknown.append("SGR \(params)")
                    return
                }
                if c == 38 { pen.foreground = color } else { pen.background = color }
            default: unknown.append("SGR \(c)")
            }
            k += 1
        }
    }

    /// Becomes `newWidth` columns narrower or wider, re-wrapping rows as tmux and most
    /// emulators do when they narrow: a row whose text is wider than the new width
    /// continues on the next rows (rows that no longer fit go to the scrollback); the
    /// cursor moves with its cell. Widening keeps rows as they are.
    mutating func resize(width newWidth: Int) {
        var rows: [[Cell]] = []
        var cursorAt = (row: 0, column: 0)
        // A cursor waiting to wrap is after the last column, as tmux keeps it (its row
        // re-wraps to there, and the cursor lands after the row's last cell).
        let column = wrapPending ? width : self.column
        for r in 0..<height {
            var cells: [Cell] = []
            var end = 0
            for c in 0..<width where !screen[r, c].isPlainBlank { end = c + 1 }
            if r == row { end = max(end, min(column, width)) }
            for c in 0..<end { cells.append(screen[r, c]) }
            // Cut into rows of newWidth columns (a wide cell never split).
            var chunk: [Cell] = []
            var used = 0
            var chunks: [[Cell]] = []
            var cursorChunk = (0, 0)
            for (c, cell) in cells.enumerated() {
                if r == row && c == column { cursorChunk = (chunks.count, used) }
                if cell.isContinuation { chunk.append(cell); continue }
                if used + Int(cell.width) > newWidth { chunks.append(chunk); chunk = []; used = 0
                    if r == row && c == column { cursorChunk = (chunks.count, 0) }
                }
                chunk.append(cell)
                used += Int(cell.width)
            }
            if r == row && column >= cells.count { cursorChunk = (chunks.count, min(used, newWidth - 1)) }
            chunks.append(chunk)
            if r == row { cursorAt = (rows.count + cursorChunk.0, cursorChunk.1) }
            rows.append(contentsOf: chunks)
        }
        // Drop blank rows at the bottom below the cursor, then push the excess out the top.
        while rows.count > height && rows.count - 1 > cursorAt.row && rows.last!.isEmpty { rows.removeLast() }
        let excess = max(0, rows.count - height)
        var next = Frame(width: newWidth, height: height)
        for (k, cells) in rows.enumerated() {
            if k < excess {
                scrollback.append(cells.filter { !$0.isContinuation }.map(\.text).joined())
                continue
            }
            var c = 0
            for cell in cells where !cell.isContinuation {
                c = next.put(cell.text, width: Int(cell.width), style: cell.style, row: k - excess, column: c)
            }
        }
        width = newWidth
        screen = next
        row = max(0, cursorAt.row - excess)
        self.column = min(cursorAt.column, newWidth - 1)
        wrapPending = false
        scrollBottom = height - 1
    }

    /// The visible rows of the screen as text.
    var rows: [String] { (0..<height).map { screen.text(row: $0) } }

    /// Whether the screen shows `frame` (text, widths and each cell's look as the
    /// encoder would write it); returns the first difference.
    func mismatch(with frame: Frame, styles frameStyles: StyleTable, encoder: ANSIEncoder) -> String? {
        for r in 0..<frame.height {
            for c in 0..<frame.width {
                let want = frame[r, c], got = screen[r, c]
                if want.text != got.text || want.width != got.width {
                    return "row \(r) column \(c): want \(want.text.debugDescription)/\(want.width), got \(got.text.debugDescription)/\(got.width)"
                }
                let s = frameStyles[want.style]
                let expected = Style(foreground: encoder.downgrade(s.foreground), background: encoder.downgrade(s.background),
                                     attributes: s.attributes,
                                     hyperlink: encoder.capabilities.hyperlinks ? s.hyperlink.map(ANSIEncoder.cleanURL) : nil)
                if styles[got.style] != expected {
                    return "row \(r) column \(c) \(want.text.debugDescription): want \(expected), got \(styles[got.style])"
                }
            }
        }
        return nil
    }
}
