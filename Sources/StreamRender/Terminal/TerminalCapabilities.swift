/// What the terminal on the other end can do, decided from the environment (and,
/// optionally, from its answers to DECRQM queries; see ``TerminalSession/probe(timeoutMilliseconds:)``).
public struct TerminalCapabilities: Hashable, Sendable {
    /// How many colours it shows; colours are downgraded to fit.
    public enum ColorSupport: Int, Comparable, Sendable, CaseIterable {
        case none, ansi16, palette256, truecolor
        public static func < (a: ColorSupport, b: ColorSupport) -> Bool { a.rawValue < b.rawValue }
    }

    public var colors: ColorSupport
    /// Mode 2026: frames are wrapped in `CSI ? 2026 h` ... `l` so they appear whole.
    public var synchronizedOutput: Bool
    /// Mode 2027: the terminal measures grapheme clusters (the `grapheme` width policy).
    public var graphemeClusters: Bool
    /// OSC 8 hyperlinks are written.
    public var hyperlinks: Bool
    /// `TERM=dumb`: no cursor motion at all (plain output only).
    public var isDumb: Bool

    public init(colors: ColorSupport = .ansi16, synchronizedOutput: Bool = false, graphemeClusters: Bool = false,
                hyperlinks: Bool = true, isDumb: Bool = false) {
        self.colors = colors
        self.synchronizedOutput = synchronizedOutput
        self.graphemeClusters = graphemeClusters
        self.hyperlinks = hyperlinks
        self.isDumb = isDumb
    }

    /// Everything on: what tests and `--color always` on a modern terminal use.
    public static let full = TerminalCapabilities(colors: .truecolor, synchronizedOutput: true, graphemeClusters: true)

    /// Decides from environment variables:
    ///
    /// - `TERM=dumb` (or no TERM on a terminal): dumb, no colour;
    /// - `NO_COLOR` (non-empty): no colour, unless `FORCE_COLOR` says otherwise;
    /// - `FORCE_COLOR`: `0` none, `1` 16, `2` 256, `3` truecolor (any other value: 16);
    /// - `COLORTERM=truecolor|24bit`: truecolor; `TERM=*256color*`: 256; else 16;
    /// - synchronized output for terminals known to support it (`TERM_PROGRAM` of
    ///   WezTerm, iTerm.app, ghostty, vscode; `TERM` of xterm-kitty, foot, contour, alacritty);
    ///   a DECRQM answer overrides this.
    ///
    /// - Complexity: O(1).
    public static func detect(environment: [String: String], isTerminal: Bool) -> TerminalCapabilities {
        let term = environment["TERM"] ?? ""
        var caps = TerminalCapabilities()
        if term == "dumb" || (term.isEmpty && isTerminal) {
            caps.isDumb = true
            caps.colors = .none
        } else if environment["COLORTERM"] == "truecolor" || environment["COLORTERM"] == "24bit" {
            caps.colors = .truecolor
        } else if term.contains("256color") {
            caps.colors = .palette256
        } else {
            caps.colors = .ansi16
        }
        if !isTerminal { caps.colors = .none }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { caps.colors = .none }
        if let force = environment["FORCE_COLOR"] {
            switch force {
            case "0": caps.colors = .none
            case "2": caps.colors = .palette256
            case "3": caps.colors = .truecolor
            default: caps.colors = max(caps.colors, .ansi16)
            }
        }
        let program = environment["TERM_PROGRAM"] ?? ""
        caps.synchronizedOutput = !caps.isDumb && (["WezTerm", "iTerm.app", "ghostty", "vscode"].contains(program)
            || ["xterm-kitty", "foot", "contour", "alacritty", "xterm-ghostty"].contains(term))
        caps.graphemeClusters = ["WezTerm", "ghostty"].contains(program) || ["xterm-kitty", "contour", "xterm-ghostty"].contains(term)
        return caps
    }
}
