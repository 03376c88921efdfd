/// Draws an ``AnswerModel`` into any rectangle of a host's ``Frame``: the tail of
/// the answer revealed so far (paced like the live views), markdown and wide
/// characters included, every cell of the area written. The ratatui shape: the model
/// is the state, the presenter draws it, the host owns the frame, the diff and the
/// terminal (``AlternateScreen`` or its own).
///
/// Styles are interned into the host's ``StyleTable`` (the one the frame is
/// encoded with), so several panes share one frame. A presenter holds only its cell
/// splitter; one per pane, or one for all panes of one width policy. Not `Sendable`:
/// the splitter shares an ICU iterator between copies.
public struct PanePresenter {
    private var splitter: CellSplitter

    /// A presenter cutting cells by `policy` (the models' layout policy).
    public init(policy: WidthPolicy = .grapheme) {
        splitter = CellSplitter(policy: policy)
    }

    /// Draws `model` into `area` of `frame`: the answer is re-wrapped first if the
    /// area's width changed, then its last `area.height` revealed lines fill the area
    /// from its top (blank rows below). Cells outside the frame are dropped.
    ///
    /// - Complexity: O(W x H) in the area's cells, plus O(t) in the open block and,
    ///   after a width change, as ``AnswerModel/resize(width:)``.
    public mutating func render(_ model: AnswerModel, into frame: inout Frame, area: Rect, styles: inout StyleTable) {
        guard area.width > 0 && area.height > 0 else { return }
        model.resize(width: area.width)
        let policy = model.answer.layout.settings.policy
        if policy != splitter.policy { splitter = CellSplitter(policy: policy) }
        PaneView.draw(model.tail(area.height), of: model.answer, area: area, revealedTo: model.revealLimit,
                      splitter: splitter, into: &frame, styles: &styles)
    }
}
