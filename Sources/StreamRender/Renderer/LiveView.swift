/// What a ``StreamRenderer`` draws the answer with: ``InlineView`` (the default on a
/// terminal), or the renderer's own fullscreen and plain views (pipes, dumb terminals).
///
/// The renderer keeps its view in one stored property and mutates it in place; a
/// view is never taken out of a container and put back, which would copy the whole
/// document per delta.
@_spi(Benchmarks) public protocol LiveView {
    /// The answer laid out: document, layout and history.
    var view: WrappedDocument { get }
    /// Frames written so far.
    var framesWritten: Int { get }
    /// Bytes written so far.
    var bytesWritten: Int { get }
    /// Whether frames follow the renderer's frame clock (the live views) or every
    /// piece of text is written as soon as it arrives (plain output: pipes are never
    /// paced).
    var isPaced: Bool { get }
    /// Whether messages (standard error) may be written between frames: the inline
    /// view clears its live region for them; fullscreen keeps them until the end.
    var showsMessagesBetweenFrames: Bool { get }

    /// The pacer's reveal position: the live views show only the text before it
    /// (nil: all of it). Plain output is never paced and ignores it.
    var revealLimit: TextPosition? { get set }

    /// A one-line status drawn below the live region while the answer streams (the
    /// inline view only; nil: none). It is gone once the answer is finished.
    var status: String? { get set }

    /// Brings markdown's rendering of the open block up to date (the renderer counts
    /// what there is to reveal before drawing).
    mutating func updateProvisional()
    /// Appends answer text (sanitised by the document) in `style`.
    mutating func append(_ text: String, style: Style)
    /// The answer's text so far ends a block (a tool call or thinking follows):
    /// markdown's open block becomes final, so it is shown before what follows.
    mutating func endBlock()
    /// Ends the answer: everything held back becomes final.
    mutating func finish()
    /// Appends the bytes of the next frame.
    mutating func frame(into out: inout [UInt8])
    /// Re-wraps at a new size and repaints.
    mutating func resize(to settings: LayoutSettings, height: Int, into out: inout [UInt8])
    /// ``resize(to:height:into:)`` without the repaint: the next ``frame(into:)`` draws
    /// (the renderer finds the reveal position in the re-rendered text in between).
    /// `screenRows`: the terminal's rows when the view is shorter (nil: `height`).
    mutating func relayout(to settings: LayoutSettings, height: Int, screenRows: Int?, into out: inout [UInt8])
    /// Rows a narrowing left in the terminal's scrollback that are written again (see
    /// ``InlineView/rowsRepeatedByResizes``; 0 for the other views).
    var rowsRepeatedByResizes: Int { get }
    /// Final lines laid out and held until a frame writes them (0 for views that
    /// write none apart: the renderer draws a frame early when there are many).
    var unwrittenFinalLines: Int { get }
    /// Gives the normal screen back (before messages, or before the process stops on
    /// Ctrl-Z); the next frame draws the view again.
    mutating func suspend(into out: inout [UInt8])
    /// Leaves the terminal as a shell expects it: after ``finish()`` and a last
    /// frame, the answer written as text and the cursor on a fresh line.
    mutating func end(into out: inout [UInt8])
    /// ``end(into:)``, for a view that writes the answer at the end (fullscreen): before
    /// the first line at or after `positions[k]`, `pause(k + 1, &out)` writes what is
    /// in `out` and the messages up to the k-th; `pause(positions.count, &out)` comes last.
    mutating func end(into out: inout [UInt8], messagesAt positions: [TextPosition],
                      _ pause: (_ upTo: Int, _ out: inout [UInt8]) -> Void)
}

extension LiveView {
    /// None: only the inline view leaves rows in the terminal's scrollback.
    public var rowsRepeatedByResizes: Int { 0 }

    /// None: only the inline view holds final lines for its next frame.
    public var unwrittenFinalLines: Int { 0 }

    /// Views that wrote the answer already: the messages come after it.
    public mutating func end(into out: inout [UInt8], messagesAt positions: [TextPosition],
                             _ pause: (_ upTo: Int, _ out: inout [UInt8]) -> Void) {
        end(into: &out)
        pause(positions.count, &out)
    }
}

@_spi(Benchmarks) extension InlineView: LiveView {
    public var isPaced: Bool { true }
    public var showsMessagesBetweenFrames: Bool { true }
}

extension InlineView {
    /// Nothing more: the last frame after ``finish()`` left every line in the
    /// scrollback and the cursor on the line after the answer.
    ///
    /// - Complexity: O(1).
    public mutating func end(into out: inout [UInt8]) {}
}

extension FullscreenView: LiveView {
    public var isPaced: Bool { true }
    public var showsMessagesBetweenFrames: Bool { false }
}
