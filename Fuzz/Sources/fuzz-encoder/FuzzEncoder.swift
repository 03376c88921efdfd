import FuzzSupport
@_spi(Benchmarks) import StreamRender

// FrameDiff + ANSIEncoder against a model terminal. The input is a script: a screen
// size, a width policy, terminal capabilities, a few styles (colours of every kind,
// attributes, hyperlinks with arbitrary bytes), then 2-4 frames, each the one before
// with a few edits (text of clusters, wide ones included, written at any cell in any
// style; rows cleared). Each frame is diffed against the one shown, encoded, and the
// bytes applied to the model terminal, which must then show the frame: every cell's
// text and width, and its look.
//
// The model terminal is Tests/StreamRenderTests/Support/ModelTerminal.swift, copied
// with public API only (`resize(width:)` left out). Its `mismatch` used two internal
// functions, `ANSIEncoder.downgrade` and `cleanURL`; rather than build the library
// with `-enable-testing` (which `@testable import` needs, and which plain
// `swift build --sanitize=fuzzer` of this package would not pass), the style check is
// reduced: colours must be exact on a truecolor terminal; on fewer colours each one
// must be of a kind the terminal shows (16: ANSI; 256: ANSI or palette, unchanged
// unless RGB; none: default) and one source colour must always look the same; links
// must be the source URL with its control characters removed (the encoder's documented
// contract), or none when hyperlinks are off. Attributes are always exact.
//
// Frames hold what the views put in them: clusters cut by CellSplitter under the
// policy, never control characters. An edit whose row would not be cut into the same
// cells again when printed (say a lone regional indicator next to another, which a
// terminal joins into a flag) is dropped: that is the frame builder's contract, not
// the encoder's.

// MARK: - Model terminal (copied from the test support, public API only)

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
    var link: String? = nil
    var scrollTop = 0
    var scrollBottom: Int
    var alternate: Frame? = nil
    var unknown: [String] = []
    var violations: [String] = []
    var synchronizedDepth = 0
    private var pendingText: [UInt8] = []
    private let splitter: CellSplitter

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
            violations.append("wide cluster \(cluster) written in the last column of row \(row)")
            column = 0
            lineFeed()
        }
        let id = styles.intern(Style(foreground: pen.foreground, background: pen.background,
                                     attributes: pen.attributes, hyperlink: link))
        screen.put(cluster, width: min(w, 2), style: id, row: row, column: column)
        column += w
        if column >= width {
            column = width - 1
            wrapPending = true
        }
    }

    private mutating func lineFeed() {
        if row == scrollBottom {
            scroll(1)
        } else if row < height - 1 {
            row += 1
        }
    }

    private mutating func scroll(_ n: Int) {
        for _ in 0..<n {
            if scrollTop == 0 && alternate == nil { scrollback.append(screen.text(row: 0)) }
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
            // Split as bytes, as a terminal does: as Characters, a URL starting with a
            // combining mark joins the `;` before it (found by this fuzzer; the test
            // support's copy splits Characters).
            if body.starts(with: [UInt8(ascii: "8"), UInt8(ascii: ";")]) {
                let url = body[2...].firstIndex(of: UInt8(ascii: ";")).map { String(decoding: body[($0 + 1)...], as: UTF8.self) } ?? ""
                link = url.isEmpty ? nil : url
            } else {
                unknown.append("OSC \(String(decoding: body, as: UTF8.self))")
            }
            return j
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
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let set = final == UInt8(ascii: "h")
            switch params {
            case "?2026": synchronizedDepth += set ? 1 : -1
            case "?25": break
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
                if k + 2 < codes.count && codes[k + 1] == 5, let n = UInt8(exactly: codes[k + 2]) {
                    color = .palette(n)
                    k += 2
                } else if k + 4 < codes.count && codes[k + 1] == 2, let r = UInt8(exactly: codes[k + 2]),
                          let g = UInt8(exactly: codes[k + 3]), let b = UInt8(exactly: codes[k + 4]) {
                    color = .rgb(r, g, b)
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
}

// MARK: - What the screen must show

/// The look a terminal with `capabilities` must give a cell in `style`, checked as far
/// as public API allows (see the header).
struct LookChecker {
    let capabilities: TerminalCapabilities
    /// The look each source colour got (one colour, one look).
    var seen: [StyleColor: StyleColor] = [:]

    /// A link target as OSC 8 carries it: control characters removed.
    static func cleaned(_ url: String) -> String {
        String(String.UnicodeScalarView(url.unicodeScalars.filter {
            $0.value >= 0x20 && $0.value != 0x7F && !($0.value >= 0x80 && $0.value < 0xA0)
        }))
    }

    /// Why `got` cannot be how `source` shows, or nil.
    mutating func problem(_ source: StyleColor, _ got: StyleColor) -> String? {
        if let earlier = seen[source], earlier != got { return "\(source) shown as \(earlier) and as \(got)" }
        seen[source] = got
        let ok: Bool
        switch (capabilities.colors, source) {
        case (.truecolor, _): ok = got == source
        case (.none, _), (_, .default): ok = got == .default
        case (.palette256, .rgb): if case .palette(let n) = got { ok = n >= 16 } else { ok = false }
        case (.palette256, _): ok = got == source
        case (.ansi16, .ansi): ok = got == source
        case (.ansi16, .palette(let n)) where n < 16: ok = got == .ansi(n)
        case (.ansi16, _): if case .ansi(let n) = got { ok = n < 16 } else { ok = false }
        }
        return ok ? nil : "\(source) shown as \(got) with \(capabilities.colors) colours"
    }

    mutating func mismatch(_ model: ModelTerminal, _ frame: Frame, _ styles: StyleTable) -> String? {
        for r in 0..<frame.height {
            for c in 0..<frame.width {
                let want = frame[r, c], got = model.screen[r, c]
                if want.text != got.text || want.width != got.width {
                    return "row \(r) column \(c): want \(want.text.debugDescription)/\(want.width), got \(got.text.debugDescription)/\(got.width)"
                }
                let s = styles[want.style], g = model.styles[got.style]
                let place = "row \(r) column \(c) \(want.text.debugDescription)"
                if g.attributes != s.attributes { return "\(place): attributes \(s.attributes.rawValue), got \(g.attributes.rawValue)" }
                if let p = problem(s.foreground, g.foreground) { return "\(place): foreground \(p)" }
                if let p = problem(s.background, g.background) { return "\(place): background \(p)" }
                var link = capabilities.hyperlinks ? s.hyperlink.map(Self.cleaned) : nil
                if link == "" { link = nil }
                if g.hyperlink != link {
                    return "\(place): link \(String(describing: link?.debugDescription)), got \(String(describing: g.hyperlink?.debugDescription))"
                }
            }
        }
        return nil
    }
}

// MARK: - Frames from the input

/// Clusters worth having in frames: wide ones, emoji sequences, combining marks.
let pool = ["a", "b", "Z", " ", " ", "中", "日", "❤️", "👨‍👩", "🇫🇷", "e\u{301}", "👍🏽", "1️⃣", "ｆ", "-", "é",
            "\u{FFFD}", "│", "─", "•", "☐", "↪", "±", "ｱ", "가"]

/// Code point ranges for scalars read from the input (no control characters: frames never hold one).
let ranges: [ClosedRange<UInt32>] = [
    0x21...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x600...0x6FF, 0x900...0x97F, 0x1100...0x11FF, 0x2000...0x206F,
    0x2190...0x2BFF, 0x3000...0x30FF, 0x4E00...0x4EFF, 0xAC00...0xAC40, 0xFE00...0xFE0F, 0xFF00...0xFFEF,
    0x1F1E6...0x1F1FF, 0x1F300...0x1F64F, 0x1F3FB...0x1F3FF, 0x1F900...0x1F9FF, 0xE0020...0xE007F,
]

func text(_ choices: inout Choices) -> String {
    var text = ""
    for _ in 0..<choices.int(in: 1...6) {
        let pick = choices.byte()
        if pick < 160 {
            text += pool[Int(pick) % pool.count]
        } else {
            let range = ranges[Int(pick) % ranges.count]
            let offset = UInt32(choices.int(in: 0...0xFFFF)) % (range.upperBound - range.lowerBound + 1)
            if let scalar = Unicode.Scalar(range.lowerBound + offset) { text.unicodeScalars.append(scalar) }
        }
    }
    return text
}

func color(_ choices: inout Choices) -> StyleColor {
    switch choices.byte() % 4 {
    case 0: return .default
    case 1: return .ansi(choices.byte() % 16)
    case 2: return .palette(choices.byte())
    default: return .rgb(choices.byte(), choices.byte(), choices.byte())
    }
}

func link(_ choices: inout Choices) -> String? {
    switch choices.byte() % 4 {
    case 0, 1: return nil
    case 2: return ["https://example.com/a", "https://example.com/b;c", "https://x.test/\u{1B}]0;title\u{7}"][Int(choices.byte()) % 3]
    default:
        // Arbitrary bytes, control characters and ESC included.
        return String(decoding: choices.take(choices.int(in: 0...12)), as: UTF8.self)
    }
}

/// Whether printing each row of `frame` gives its cells back: the row as a whole and
/// every cell alone (what a terminal does with the encoder's runs of text).
func printsAsItsCells(_ frame: Frame, row r: Int, _ splitter: CellSplitter) -> Bool {
    var cells: [(text: String, width: Int)] = []
    for c in 0..<frame.width where !frame[r, c].isContinuation {
        let cell = frame[r, c]
        let alone = splitter.cells(of: cell.text)
        if alone.count != 1 || alone[0].width != Int(cell.width) || Array(alone[0].text.utf8) != Array(cell.text.utf8) { return false }
        cells.append((cell.text, Int(cell.width)))
    }
    let printed = splitter.cells(of: cells.map(\.text).joined())
    return printed.count == cells.count
        && zip(printed, cells).allSatisfy { $0.width == $1.width && Array($0.text.utf8) == Array($1.text.utf8) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt {
    var choices = Choices(UnsafeBufferPointer(start: d, count: n))
    let width = choices.int(in: 1...24), height = choices.int(in: 1...6)
    let policies: [WidthPolicy] = [.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true),
                                   WidthPolicy(mode: .wcwidth, ambiguousIsWide: true)]
    let policy = policies[choices.int(in: 0...3)]
    let flags = choices.byte()
    let capabilities = TerminalCapabilities(colors: TerminalCapabilities.ColorSupport(rawValue: Int(flags & 3))!,
                                            synchronizedOutput: flags & 4 != 0, graphemeClusters: policy.mode == .grapheme,
                                            hyperlinks: flags & 8 != 0)
    let absolute = flags & 16 != 0
    var encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: absolute)
    // Relative rows need a known cursor; absolute ones may start unknown (CUP first).
    encoder.cursor = absolute && flags & 32 != 0 ? nil : (0, 0)

    var styles = StyleTable()
    let palette = (0..<choices.int(in: 1...6)).map { _ in
        styles.intern(Style(foreground: color(&choices), background: color(&choices),
                            attributes: Style.Attributes(rawValue: choices.byte() & 0x3F), hyperlink: link(&choices)))
    }

    let splitter = CellSplitter(policy: policy)
    var model = ModelTerminal(width: width, height: height, policy: policy)
    var looks = LookChecker(capabilities: capabilities)
    var diff = FrameDiff()
    var shown = Frame(width: width, height: height)
    var frame = shown
    let context = "\(width)x\(height) \(policy) \(capabilities.colors) sync \(capabilities.synchronizedOutput) links \(capabilities.hyperlinks) absolute \(absolute)"
    for step in 0..<choices.int(in: 2...4) {
        for _ in 0..<choices.int(in: 1...6) {
            let r = choices.int(in: 0...(height - 1))
            var edited = frame
            if choices.byte() < 24 {
                edited.clear(row: r)
            } else {
                var c = choices.int(in: 0...(width - 1))
                let style = palette[choices.int(in: 0...(palette.count - 1))]
                for (cell, w) in splitter.cells(of: text(&choices)) where c + w <= width {
                    c = edited.put(cell, width: w, style: style, row: r, column: c)
                }
            }
            if printsAsItsCells(edited, row: r, splitter) { frame = edited }
        }
        frame._invariantCheck()
        diff.compute(from: shown, to: frame)
        var bytes: [UInt8] = []
        encoder.synchronized(&bytes) { encoder.encode(diff.changes, of: frame, styles: styles, into: &$0) }
        model.apply(bytes)
        shown = frame
        var problem = looks.mismatch(model, frame, styles)
        if problem == nil, let v = model.violations.first { problem = v }
        if problem == nil, let u = model.unknown.first { problem = "unknown sequence: \(u)" }
        if problem == nil, !model.scrollback.isEmpty { problem = "the screen scrolled" }
        if problem == nil, model.synchronizedDepth != 0 { problem = "synchronized output left on" }
        if let problem {
            // Built first: an autoclosure capturing `bytes` here crashes the 6.3 optimiser.
            let written = String(decoding: bytes, as: UTF8.self).debugDescription
            let message = "frame \(step) (\(context)): \(problem)\n  bytes \(written)"
            fuzzFailure(message)
        }
    }
    return 0
}
