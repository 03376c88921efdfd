import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Width calibration (issue 26): the probe's samples, answered by model terminals that
/// draw emoji, flags, variation selectors, Indic clusters and ambiguous characters in
/// different ways, give a policy that predicts each terminal, and a table laid out with
/// it is aligned on that terminal (with the uncalibrated policy it is not).
@Suite struct WidthCalibrationTests {
    /// A terminal behaviour: how it draws (the model terminal's policy) and what it says
    /// to DECRQM 2027 (the policy the renderer starts from).
    struct Behaviour: CustomStringConvertible, Sendable {
        var name: String
        var draws: WidthPolicy
        var base: WidthPolicy
        var description: String { name }
    }

    static let behaviours: [Behaviour] = {
        // Grapheme clusters, but emoji asked for by VS16 left narrow and flags drawn as
        // two letters' worth of cells (as VTE-based terminals did).
        var mixed = WidthPolicy(mode: .grapheme)
        mixed.setMode(.wcwidth, for: .emojiVS16)
        mixed.setMode(.scalars, for: .flag)
        return [
            Behaviour(name: "grapheme clusters, mode 2027 reported", draws: .grapheme, base: .grapheme),
            Behaviour(name: "tmux 3.3", draws: .wcwidth, base: .wcwidth),
            Behaviour(name: "per code point without joins, ambiguous wide (a CJK locale)",
                      draws: WidthPolicy(mode: .scalars, ambiguousIsWide: true), base: .wcwidth),
            Behaviour(name: "graphemes without mode 2027, VS16 narrow, flags split", draws: mixed, base: .wcwidth),
        ]
    }()

    /// Clusters of every kind, beyond the samples: what the calibrated policy must predict.
    static let clusters = [
        "👩‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "❤️‍🔥", "🧑🏽‍🚀", "🇫🇷", "🇯🇵", "🇺🇸", "❤️", "✔️", "☀️", "1️⃣", "⌚︎", "☕︎",
        "क्षि", "हिं", "கொ", "ஸ்ரீ", "±", "①", "…", "é", "中", "😀", "a",
    ]

    static let table: String = {
        var text = "| Glyph | Kind | Note |\n|---|---|---|\n"
        for cluster in clusters { text += "| \(cluster) | x | y |\n" }
        return text + "\nEnd.\n"
    }()

    /// The calibration read from `model`'s answers to the queries.
    static func measure(_ model: inout ModelTerminal) -> WidthCalibration? {
        model.apply(WidthCalibration.queries)
        return WidthCalibration.parse(model.replies, columns: model.width)
    }

    /// The table rendered by the inline view under `policy` on a terminal drawing by
    /// `draws`: the column of each table row's last border cell.
    static func borderColumns(policy: WidthPolicy, draws: WidthPolicy) -> [Int] {
        let (r, sink, _) = StreamRendererTests.renderer(.inline, width: 60, height: 40, policy: policy, format: .text)
        var model = ModelTerminal(width: 60, height: 40, policy: draws)
        r.feed(Array(table.utf8))
        r.finish()
        model.apply(sink.bytes)
        var columns: [Int] = []
        for row in 0..<model.height {
            let cells = (0..<model.width).map { model.screen[row, $0] }
            guard cells.first?.text == "│" else { continue }
            if let last = cells.lastIndex(where: { $0.text == "│" }) { columns.append(last) }
        }
        return columns
    }

    @Test(arguments: behaviours)
    func theMeasuredPolicyPredictsTheTerminal(_ behaviour: Behaviour) {
        var model = ModelTerminal(width: 80, height: 10, policy: behaviour.draws)
        guard let calibration = Self.measure(&model) else {
            Issue.record("no calibration from \(behaviour)")
            return
        }
        let policy = calibration.policy(base: behaviour.base)
        for cluster in Self.clusters {
            #expect(DisplayWidth.of(cluster, policy: policy) == DisplayWidth.of(cluster, policy: behaviour.draws),
                    "\(behaviour): \(cluster) measured \(calibration), policy \(policy)")
        }
        // Out of sight: the samples are erased, the cursor is back where it was.
        #expect(model.rows.allSatisfy { $0.allSatisfy { $0 == " " } } && model.row == 0 && model.column == 0, "\(model.rows[0])")
        #expect(model.unknown.isEmpty, "\(model.unknown)")
    }

    @Test(arguments: behaviours)
    func aTableLaidOutWithTheMeasuredPolicyIsAligned(_ behaviour: Behaviour) {
        var model = ModelTerminal(width: 80, height: 10, policy: behaviour.draws)
        let policy = Self.measure(&model)!.policy(base: behaviour.base)
        let measured = Self.borderColumns(policy: policy, draws: behaviour.draws)
        #expect(measured.count == Self.clusters.count + 1 && Set(measured).count == 1, "\(behaviour): \(measured)")
        // Without the measurement, the terminals that are not what mode 2027 suggests
        // get a ragged table.
        if behaviour.draws != behaviour.base {
            let guessed = Self.borderColumns(policy: behaviour.base, draws: behaviour.draws)
            #expect(Set(guessed).count > 1, "\(behaviour): aligned without measuring? \(guessed)")
        }
    }

    /// No answer, a cursor too near the right edge, and a sample that wrapped: the
    /// policy falls back to what mode 2027 said (for the unusable samples' kinds).
    @Test func unusableAnswersFallBack() {
        #expect(WidthCalibration.parse([], columns: 80) == nil)
        #expect(WidthCalibration.parse(Array("\u{1B}[?2026;2$y\u{1B}[?62c".utf8), columns: 80) == nil)
        // A cursor near the right edge of the last row: autowrap is off while the samples
        // are written, so nothing wraps or scrolls; too little room, nothing measured.
        var model = ModelTerminal(width: 80, height: 10, policy: .scalars)
        model.apply(Array("above\u{1B}[10;78H".utf8))
        model.apply(WidthCalibration.queries)
        #expect(WidthCalibration.parse(model.replies, columns: 80) == nil, "the samples would wrap")
        #expect(model.scrollback.isEmpty && model.rows[0].hasPrefix("above") && model.row == 9 && model.column == 77,
                "\(model.rows) at \(model.row),\(model.column)")
        #expect(model.rows[9].allSatisfy { $0 == " " } && model.autowrap && model.unknown.isEmpty, "\(model.rows[9]) \(model.unknown)")
        // Every answer on another row than the first: nothing measured.
        var replies = Array("\u{1B}[3;1R".utf8)
        for _ in WidthCalibration.samples { replies += Array("\u{1B}[4;1R".utf8) }
        let wrapped = WidthCalibration.parse(replies, columns: 80)
        #expect(wrapped?.widths.allSatisfy { $0 == nil } == true)
        #expect(wrapped?.policy(base: .wcwidth) == .wcwidth)
        // Replies mixed with the probe's others (DECRQM, device attributes) are found.
        var mixed = Array("\u{1B}[?2026;2$y".utf8)
        var terminal = ModelTerminal(width: 80, height: 10, policy: .grapheme)
        mixed += Self.measure(&terminal).map { _ in terminal.replies } ?? []
        mixed += Array("\u{1B}[?62;22c".utf8)
        #expect(WidthCalibration.parse(mixed, columns: 80)?.policy(base: .wcwidth) == .grapheme)
    }

    /// The policy's kinds and its text (`--stats --verbose` shows it).
    @Test func kindsAreSetAndDescribed() {
        var policy = WidthPolicy(mode: .wcwidth)
        #expect(policy.description == "wcwidth")
        policy.setMode(.grapheme, for: .emojiVS16)
        policy.setMode(.scalars, for: .flag)
        #expect(policy.mode(for: .emojiVS16) == .grapheme && policy.mode(for: .flag) == .scalars && policy.mode(for: .indic) == .wcwidth)
        #expect(policy.description == "wcwidth+flag=scalars+vs16=grapheme")
        policy.setMode(.wcwidth, for: .flag)
        #expect(policy.mode(for: .flag) == .wcwidth && policy.description == "wcwidth+vs16=grapheme")
        #expect(DisplayWidth.of("❤️", policy: policy) == 2 && DisplayWidth.of("❤️", policy: .wcwidth) == 1)
        // A keycap is of the VS16 kind (it starts with an ASCII digit).
        #expect(Array("1️⃣".utf8).withUnsafeBufferPointer { WidthPolicy.kind(of: $0) } == .emojiVS16)
        #expect(DisplayWidth.of("1️⃣", policy: policy) == 2 && DisplayWidth.of("1️⃣", policy: .wcwidth) == 1)
        let calibration = WidthCalibration(widths: [2, 1, 2, 1, 2, 3, nil])
        #expect(calibration.description == "emoji-zwj 2 1, flag 2, vs16 1, vs15 2, indic 3, ambiguous ?")
    }
}
