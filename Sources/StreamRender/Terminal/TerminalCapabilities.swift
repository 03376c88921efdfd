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

    /// The same without OSC 8 hyperlinks.
    public var withoutHyperlinks: TerminalCapabilities {
        var copy = self
        copy.hyperlinks = false
        return copy
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
    ///   a DECRQM answer overrides this;
    /// - hyperlinks only where the terminal is known to show them (``supportsHyperlinks(_:)``).
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
        } else if Self.contains(term, "256color") {
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
        caps.hyperlinks = !caps.isDumb && supportsHyperlinks(environment)
        return caps
    }

    /// Whether `text` contains `part` (ASCII). Compared as bytes: `String.contains(_:)`
    /// builds a table of characters for its search first, a quarter of a million
    /// instructions at start-up. Text that is not ASCII is compared by characters.
    static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8), wanted = Array(part.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) && wanted.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0x0A }) else {
            return text.contains(part)
        }
        guard wanted.count <= bytes.count else { return false }
        return (0...bytes.count - wanted.count).contains { bytes[$0..<$0 + wanted.count].elementsEqual(wanted) }
    }

    /// Environment variables ``detect(environment:isTerminal:)`` reads.
    public static let environmentNames = ["TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TERM_PROGRAM",
                                          "TERM_PROGRAM_VERSION", "TMUX", "VTE_VERSION", "KONSOLE_VERSION", "WT_SESSION",
                                          "FORCE_HYPERLINK"]

    /// Whether the terminal shows OSC 8 hyperlinks. Terminals that do not ignore the
    /// sequence and show only the text, so the URL would be nowhere: only terminals
    /// known to support them get them, the others the URL as text (`text (url)`).
    /// Known: tmux 3.4 and later (tmux 3.3 drops them), iTerm2, WezTerm, ghostty, VS
    /// Code, Hyper, Tabby, Rio, kitty, foot, Alacritty, Contour, Windows Terminal,
    /// VTE 0.50+ (GNOME Terminal...), Konsole 20.12+. Not: Terminal.app, GNU screen,
    /// the Linux console, older tmux, anything unknown. `FORCE_HYPERLINK=1` / `0` decides.
    ///
    /// - Complexity: O(1).
    public static func supportsHyperlinks(_ environment: [String: String]) -> Bool {
        if let force = environment["FORCE_HYPERLINK"], !force.isEmpty { return force != "0" }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if program == "tmux" || environment["TMUX"] != nil {
            // Inside tmux only tmux's version matters: it draws the screen.
            guard program == "tmux", let version = environment["TERM_PROGRAM_VERSION"] else { return false }
            let parts = version.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return (parts.first ?? 0, parts.dropFirst().first ?? 0) >= (3, 4)
        }
        if term.hasPrefix("screen") || term == "linux" || program == "Apple_Terminal" { return false }
        if ["iTerm.app", "WezTerm", "ghostty", "vscode", "Hyper", "Tabby", "rio"].contains(program) { return true }
        if ["xterm-kitty", "foot", "foot-extra", "alacritty", "contour", "xterm-ghostty", "wezterm", "rio"].contains(term) { return true }
        if environment["WT_SESSION"] != nil { return true }
        if let vte = Int(environment["VTE_VERSION"] ?? ""), vte >= 5000 { return true }
        if let konsole = Int(environment["KONSOLE_VERSION"] ?? ""), konsole >= 201200 { return true }
        return false
    }
}
