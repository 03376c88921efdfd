#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StreamRenderer.Configuration {
    /// What a program (or its user) asked of the output; what is left `nil` or
    /// `.auto` is decided from the terminal and the environment.
    public struct TerminalChoices: Sendable {
        /// Colours: from the environment, or forced on or off.
        public enum Colors: String, Sendable, CaseIterable {
            /// From `TERM`, `COLORTERM`, `NO_COLOR` and `FORCE_COLOR`.
            case auto
            /// At least 16 colours, and plain output into a pipe is styled (the
            /// `ls`/`grep`/`bat` convention, for `| less -R`).
            case always
            /// Bold, italic, underline and dim only.
            case never
        }

        /// The view; nil: ``liveView`` on a terminal (not `TERM=dumb`, `width` not 0),
        /// plain lines otherwise (a pipe, a file).
        public var output: StreamRenderer.Configuration.Output?
        /// The live view `output == nil` picks on a terminal.
        public var liveView: StreamRenderer.Configuration.Output
        public var colors: Colors
        /// Columns; nil: the terminal's, else `COLUMNS`, else 80. 0: plain output, the
        /// text unwrapped. A live view is never wider than the terminal.
        public var width: Int?
        /// Rows of the live views; nil: the terminal's, else 24. Never taller than the terminal.
        public var height: Int?
        /// Nil: `grapheme` where the terminal says it clusters graphemes (mode 2027),
        /// else `wcwidth`, fitted to the widths the probe measured where the terminal
        /// answers cursor position reports (``WidthCalibration``).
        public var widthPolicy: WidthPolicy?
        /// Nil: monochrome without colours, else dark.
        public var theme: MarkdownTheme?
        /// Ask a live view's terminal about synchronized output and grapheme clustering,
        /// and measure its widths (one round trip, up to 150 ms; see
        /// ``TerminalSession/probe(timeoutMilliseconds:)``).
        public var probesTerminal: Bool
        public var tabSize: Int

        public init(output: StreamRenderer.Configuration.Output? = nil, liveView: StreamRenderer.Configuration.Output = .inline,
                    colors: Colors = .auto, width: Int? = nil, height: Int? = nil, widthPolicy: WidthPolicy? = nil,
                    theme: MarkdownTheme? = nil, probesTerminal: Bool = true, tabSize: Int = 8) {
            self.output = output
            self.liveView = liveView
            self.colors = colors
            self.width = width
            self.height = height
            self.widthPolicy = widthPolicy
            self.theme = theme
            self.probesTerminal = probesTerminal
            self.tabSize = tabSize
        }
    }

    /// The widest layout the terminal set-up uses (a larger `COLUMNS` is ignored).
    public static let maximumWidth = 4096

    /// The environment variables ``forTerminal(_:environment:choices:)`` reads.
    public static let terminalEnvironmentNames = TerminalCapabilities.environmentNames + ["COLUMNS"]

    /// A configuration for the terminal (or pipe) on `terminal`'s output: what it can
    /// show (``TerminalCapabilities/detect(environment:isTerminal:)``, the probe's
    /// answers), `NO_COLOR` as monochrome, `TERM=dumb` and pipes as plain lines, the
    /// width and height of the terminal (else `COLUMNS`, else 80 by 24), clamped to it
    /// for a live view, and the width policy the terminal draws with. Everything
    /// else keeps ``init(output:layout:height:format:maximumEventBytes:limits:capabilities:showThinking:framesPerSecond:endsOnFreshLine:eventLimitName:wrapsPlainText:markdown:theme:pacing:showsStatus:stylesPlainText:)``'s
    /// defaults, to be set on the result.
    ///
    /// `environment`: nil reads the process's (``terminalEnvironmentNames``).
    ///
    /// - Complexity: O(1), plus up to 150 ms waiting for the terminal's answers when
    ///   a live view probes it.
    public static func forTerminal(_ terminal: TerminalSession, environment: [String: String]? = nil,
                                   choices: TerminalChoices = TerminalChoices()) -> StreamRenderer.Configuration {
        let environment = environment ?? processEnvironment()
        let isTerminal = terminal.outputIsTerminal
        var capabilities = TerminalCapabilities.detect(environment: environment, isTerminal: isTerminal || choices.colors == .always)
        switch choices.colors {
        case .never: capabilities.colors = .none
        case .always: capabilities.colors = max(capabilities.colors, .ansi16)
        case .auto: break
        }
        let isLive = choices.output.map { $0 != .plain } ?? (isTerminal && !capabilities.isDumb && choices.width != 0)
        let output = choices.output ?? (isLive ? choices.liveView : .plain)
        let size = isTerminal ? terminal.size : nil
        // Into a pipe, COLUMNS (as shells export it) before the 80-column default.
        let columnsVariable = environment["COLUMNS"].flatMap(Int.init).flatMap { (1...maximumWidth).contains($0) ? $0 : nil }
        var columns = choices.width ?? size?.columns ?? columnsVariable ?? 80
        var rows = choices.height ?? size?.rows ?? 24
        if isLive, let size {
            // A live view never draws wider or taller than the terminal.
            columns = min(columns, size.columns)
            rows = min(rows, size.rows)
        }
        if isLive && isTerminal && choices.probesTerminal {
            // A width policy chosen needs no measuring.
            terminal.measuresWidths = choices.widthPolicy == nil
            let answers = terminal.probe()
            if let synchronized = answers.synchronized { capabilities.synchronizedOutput = synchronized }
            if let graphemes = answers.graphemes { capabilities.graphemeClusters = graphemes }
        }
        var policy = choices.widthPolicy ?? (capabilities.graphemeClusters ? .grapheme : .wcwidth)
        if choices.widthPolicy == nil, let widths = terminal.widths { policy = widths.policy(base: policy) }
        return StreamRenderer.Configuration(
            output: output, layout: LayoutSettings(width: max(1, columns), tabSize: choices.tabSize, policy: policy),
            content: .init(theme: choices.theme ?? (capabilities.colors == .none ? .monochrome : .dark)),
            plainText: .init(wraps: columns != 0, styles: output == .plain && choices.colors == .always && columns != 0),
            live: .init(height: max(1, rows)), capabilities: capabilities, endsOnFreshLine: isTerminal)
    }

    /// The process's values of ``terminalEnvironmentNames``.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in terminalEnvironmentNames {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
