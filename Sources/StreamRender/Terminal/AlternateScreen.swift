#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host's full screen: the alternate screen with the cursor hidden, each frame
/// written as the cells that changed since the last one (``FrameDiff``, one
/// ``ANSIEncoder``, synchronized output where the terminal has it). What a TUI that
/// composes its own ``Frame`` (panes drawn by ``PanePresenter``, status rows)
/// needs between that frame and the terminal.
///
/// With a ``TerminalSession``, ``begin(height:)`` and ``end()`` also take the terminal
/// and give it back (echo off, the signal watcher, the restore a second Ctrl-C
/// writes), and ``respond(to:)`` answers the signals a full-screen program gets.
///
/// Not `Sendable`: it holds the sink (a class) and the frame shown; one per terminal.
public struct AlternateScreen {
    private let capabilities: TerminalCapabilities
    private let sink: any RenderSink
    private let terminal: TerminalSession?
    private var height = 1
    private var encoder: ANSIEncoder
    private var shown = Frame(width: 1, height: 0)
    private var diff = FrameDiff()
    private var out: [UInt8] = []
    /// Whether the alternate screen is entered.
    public private(set) var isEntered = false
    /// Frames written.
    public private(set) var framesWritten = 0

    /// A screen written to `sink` for a terminal of `capabilities`; `terminal`: the
    /// session whose modes and signals ``begin(height:)`` takes (nil: output only).
    public init(capabilities: TerminalCapabilities, sink: any RenderSink, terminal: TerminalSession? = nil) {
        self.capabilities = capabilities
        self.sink = sink
        self.terminal = terminal
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: true)
    }

    /// Takes the terminal (when the output is one: echo off, the restore a second
    /// Ctrl-C writes; and ``SignalWatcher``) and enters the alternate screen.
    ///
    /// - Complexity: O(1).
    public mutating func begin(height: Int) {
        _ = SignalWatcher.start()
        if let terminal, terminal.outputIsTerminal {
            terminal.disableEcho()
            terminal.setEmergencyRestore(ANSIEncoder.restoreSequence(fullscreen: true))
        }
        enter(height: height)
    }

    /// Leaves the alternate screen and gives the terminal back as ``begin(height:)``
    /// found it.
    ///
    /// - Complexity: O(1), plus a probe's late reply (``TerminalSession/restoreModes()``).
    public mutating func end() {
        leave()
        terminal?.restoreModes()
        SignalWatcher.stop()
    }

    /// Answers `signals` (from ``SignalWatcher/wait(input:until:)``) as a full-screen
    /// program should: Ctrl-Z leaves the screen, stops the process and enters the
    /// screen again once continued; a resize or a continue clears it at the terminal's
    /// size (echo off again after `bg`/`fg`). Returns the first SIGINT, SIGTERM or
    /// SIGHUP (the program should stop) and the terminal's size when it may have
    /// changed (lay out again: the next frame is drawn whole).
    ///
    /// - Complexity: O(s) in the signals.
    public mutating func respond(to signals: [Int32]) -> (stop: Int32?, size: (columns: Int, rows: Int)?) {
        var size: (columns: Int, rows: Int)?
        for signal in signals {
            switch signal {
            case SIGINT, SIGTERM, SIGHUP:
                return (signal, size)
            case SIGTSTP, SIGWINCH, SIGCONT:
                if signal == SIGTSTP {
                    leave()
                    terminal?.stopProcess()  // returns when continued (`fg`)
                } else if signal == SIGCONT {
                    terminal?.disableEcho()
                }
                size = terminal?.size ?? size
                if isEntered { repaint(height: size?.rows ?? height) } else { enter(height: size?.rows ?? height) }
            default:
                break
            }
        }
        return (nil, size)
    }

    /// Enters the alternate screen, cleared, the cursor hidden; the next frame is
    /// drawn whole.
    ///
    /// - Complexity: O(1).
    public mutating func enter(height: Int) {
        self.height = max(1, height)
        out += ANSIEncoder.enterAlternateScreen(height: height)
        isEntered = true
        forget()
        flush()
    }

    /// Clears the screen (after a resize, or when the process continues after
    /// Ctrl-Z); the next frame is drawn whole.
    ///
    /// - Complexity: O(1).
    public mutating func repaint(height: Int) {
        self.height = max(1, height)
        out += ANSIEncoder.resetScreen(height: height)
        forget()
        flush()
    }

    /// The cursor and pen are unknown and the screen blank.
    private mutating func forget() {
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: true)
        shown = Frame(width: 1, height: 0)
    }

    /// Writes what changed from the last frame to `frame`, whose styles are in `styles`.
    ///
    /// - Complexity: O(W x H) for the diff plus the bytes written.
    public mutating func draw(_ frame: Frame, styles: StyleTable) {
        if shown.width != frame.width || shown.height != frame.height { shown = Frame(width: frame.width, height: frame.height) }
        diff.compute(from: shown, to: frame)
        ANSIEncoder.synchronized(encoder.capabilities.synchronizedOutput, &out) { out in
            encoder.encode(diff.changes, of: frame, styles: styles, into: &out)
        }
        shown = frame
        framesWritten += 1
        flush()
    }

    /// Leaves the alternate screen: the normal screen back, the cursor shown.
    ///
    /// - Complexity: O(1).
    public mutating func leave() {
        guard isEntered else { return }
        out += ANSIEncoder.leaveAlternateScreen
        isEntered = false
        flush()
    }

    private mutating func flush() {
        guard !out.isEmpty else { return }
        out.withUnsafeBufferPointer { sink.write($0) }
        out.removeAll(keepingCapacity: true)
    }
}
