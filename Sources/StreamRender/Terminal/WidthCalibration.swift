/// What the terminal does with the clusters terminals disagree about, measured: each
/// sample is written at the cursor, concealed (inside a synchronized update where the
/// terminal has one), and a cursor position report says how far the cursor moved;
/// then the cursor goes back and the samples are erased. The queries ride on the
/// terminal probe's round trip (``TerminalSession/probe(timeoutMilliseconds:)``), so
/// they cost no wait of their own.
///
/// ``policy(base:)`` turns the measurements into a ``WidthPolicy``: the mode that
/// explains most samples, each ``WidthPolicy/ClusterKind`` measured by the mode that
/// predicts its samples, East Asian Ambiguous as wide as measured.
public struct WidthCalibration: Sendable, Hashable, CustomStringConvertible {
    /// A sample: the kind of cluster it stands for (nil: East Asian Ambiguous) and its text.
    struct Sample {
        var kind: WidthPolicy.ClusterKind?
        var text: String
    }

    /// Samples chosen so that the modes predict different widths: a ZWJ sequence of
    /// two wide emoji (2, 2, 4 under grapheme, wcwidth, scalars) and one whose first
    /// part asks for emoji presentation (2, 1, 3); a flag (2, 2, 4); VS16 (2, 1, 1);
    /// VS15 on an emoji-presentation character (1, 2, 2); a Devanagari conjunct (1, 3,
    /// 3); an ambiguous character (1 or 2).
    static let samples: [Sample] = [
        Sample(kind: .emojiZWJ, text: "\u{1F469}\u{200D}\u{1F4BB}"),
        Sample(kind: .emojiZWJ, text: "\u{2764}\u{FE0F}\u{200D}\u{1F525}"),
        Sample(kind: .flag, text: "\u{1F1EB}\u{1F1F7}"),
        Sample(kind: .emojiVS16, text: "\u{2764}\u{FE0F}"),
        Sample(kind: .textVS15, text: "\u{231A}\u{FE0E}"),
        Sample(kind: .indic, text: "\u{0915}\u{094D}\u{0937}\u{093F}"),
        Sample(kind: nil, text: "\u{00B1}"),
    ]

    /// Columns the cursor needs free right of where it is: the samples must not wrap.
    static let room = 8

    /// The columns the cursor moved for each sample (nil: no usable answer), in
    /// ``samples`` order.
    public let widths: [Int?]

    init(widths: [Int?]) {
        self.widths = widths
    }

    /// The widths by kind, in sample order (`?`: not measured): `emoji-zwj 2 1, flag 2, …`.
    public var description: String {
        var parts: [(name: String, widths: [String])] = []
        for (sample, width) in zip(Self.samples, widths) {
            let name = sample.kind.map(String.init(describing:)) ?? "ambiguous"
            let text = width.map(String.init) ?? "?"
            if parts.last?.name == name { parts[parts.count - 1].widths.append(text) } else { parts.append((name, [text])) }
        }
        return parts.map { "\($0.name) \($0.widths.joined(separator: " "))" }.joined(separator: ", ")
    }

    /// The bytes that measure the samples (``ANSIEncoder/measuringQueries(_:)``).
    static let queries = ANSIEncoder.measuringQueries(samples.map(\.text))

    /// The measurements in `reply` (the terminal's answers to ``queries``, other
    /// replies mixed in), or nil when it holds no answer to the first query, the
    /// cursor was too close to the right edge (`columns`) for the samples, or an
    /// answer is missing.
    ///
    /// - Complexity: O(n) in the bytes of `reply`.
    static func parse(_ reply: [UInt8], columns: Int) -> WidthCalibration? {
        let reports = cursorReports(reply)
        guard reports.count == samples.count + 1 else { return nil }
        let origin = reports[0]
        guard origin.column + room <= columns else { return nil }
        return WidthCalibration(widths: reports.dropFirst().map { report in
            report.row == origin.row && report.column >= origin.column ? report.column - origin.column : nil
        })
    }

    /// The cursor position reports (`CSI row ; column R`) in `reply`, in order.
    static func cursorReports(_ reply: [UInt8]) -> [(row: Int, column: Int)] {
        var reports: [(row: Int, column: Int)] = []
        var i = 0
        while i + 1 < reply.count {
            guard reply[i] == 0x1B, reply[i + 1] == 0x5B else { i += 1; continue }
            var j = i + 2
            var numbers = [0]
            while j < reply.count, reply[j] == 0x3B || (reply[j] >= 0x30 && reply[j] <= 0x39) {
                if reply[j] == 0x3B { numbers.append(0) } else { numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(reply[j] - 0x30), 1 << 20) }
                j += 1
            }
            if j < reply.count, reply[j] == UInt8(ascii: "R"), numbers.count == 2, j > i + 2 {
                reports.append((numbers[0], numbers[1]))
            }
            i = max(j, i + 1)
        }
        return reports
    }

    /// `base` fitted to the measurements: its mode the one that predicts the most
    /// samples (`base`'s on a tie), each kind whose samples another mode predicts (and
    /// this one does not) measured by it, East Asian Ambiguous wide if measured 2.
    /// A kind no mode explains, or not measured, follows the mode.
    ///
    /// - Complexity: O(1) (a few widths of the samples).
    public func policy(base: WidthPolicy) -> WidthPolicy {
        var policy = WidthPolicy(mode: base.mode, ambiguousIsWide: base.ambiguousIsWide)
        for (sample, width) in zip(Self.samples, widths) where sample.kind == nil {
            if width == 1 { policy.ambiguousIsWide = false }
            if width == 2 { policy.ambiguousIsWide = true }
        }
        // Which samples each mode predicts (each sample measured once under each mode).
        let kinded = Self.samples.indices.filter { Self.samples[$0].kind != nil }
        var explained: [WidthPolicy.Mode: Set<Int>] = [:]
        for mode in WidthPolicy.Mode.allCases {
            let rule = WidthPolicy(mode: mode, ambiguousIsWide: policy.ambiguousIsWide)
            explained[mode] = Set(kinded.filter { widths[$0] != nil && DisplayWidth.of(Self.samples[$0].text, policy: rule) == widths[$0] })
        }
        func explains(_ mode: WidthPolicy.Mode, _ k: Int) -> Bool { explained[mode]!.contains(k) }
        let score = { (mode: WidthPolicy.Mode) in explained[mode]!.count }
        if let best = WidthPolicy.Mode.allCases.max(by: { score($0) < score($1) }), score(best) > score(base.mode) {
            policy.mode = best
        }
        for kind in WidthPolicy.ClusterKind.allCases {
            let measured = kinded.filter { Self.samples[$0].kind == kind && widths[$0] != nil }
            guard !measured.isEmpty else { continue }
            let modes = WidthPolicy.Mode.allCases.filter { mode in measured.allSatisfy { explains(mode, $0) } }
            if let mode = modes.first, !modes.contains(policy.mode) { policy.setMode(mode, for: kind) }
        }
        return policy
    }
}
