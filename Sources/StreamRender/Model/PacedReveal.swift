/// The typewriter pacer and where its counts fall in a document: how much of the
/// answer a frame shows. ``StreamRenderer``'s live views and ``AnswerModel`` reveal
/// through it.
struct PacedReveal {
    /// Nil: everything received is shown at once.
    var pacer: Pacer?
    var tracker = RevealTracker()

    /// A pacer for `settings` (nil: none) whose backlog never holds text the history
    /// `limits` would evict: at most half the history waits (a unit makes at most one
    /// line; a cluster is at least a byte, most under 8).
    init(settings: Pacer.Settings?, frameInterval: Duration, limits: HistoryLimits) {
        guard let settings else { return }
        let lines = (limits.maximumLines ?? .max) / 2
        let bytes = (limits.maximumBytes ?? .max) / 16
        pacer = Pacer(settings: settings, frameInterval: frameInterval, maximumBacklog: max(1, min(lines, bytes)))
    }

    /// The pacer learns what there is to show at `time` and says how many units are
    /// revealed (all of them without a pacer).
    ///
    /// - Complexity: as ``RevealTracker/total(in:)``.
    mutating func units(at time: Duration, in document: StyledDocument) -> Int {
        let total = tracker.total(in: document)
        guard pacer != nil else { return total }
        pacer!.receive(total, at: time)
        return pacer!.tick(at: time)
    }

    /// Where the units already revealed end in `document` as it is now: after a
    /// resize, markdown's open block is rendered again at the new width, and a
    /// position found in its old text could fall anywhere in the new (inside a
    /// character). Nil without a pacer.
    ///
    /// - Complexity: as ``RevealTracker/position(after:wholeWords:in:)``.
    mutating func limitAgain(in document: StyledDocument, inputEnded: Bool) -> TextPosition? {
        guard let pacer else { return nil }
        return limit(after: pacer.revealed, in: document, inputEnded: inputEnded)
    }

    /// Where the text revealed after `units` units ends (nil: all of it is shown, or
    /// there is no pacer); the pacer learns where a whole word took it.
    ///
    /// - Complexity: as ``RevealTracker/position(after:wholeWords:in:)``.
    mutating func limit(after units: Int, in document: StyledDocument, inputEnded: Bool) -> TextPosition? {
        guard pacer != nil else { return nil }
        let (position, reached) = tracker.position(after: units, wholeWords: pacer!.settings.revealsWords, in: document)
        if reached != units { pacer!.setRevealed(reached) }
        return pacer!.backlog == 0 && inputEnded ? nil : position
    }

    /// Whether everything received is shown.
    var isComplete: Bool { (pacer?.backlog ?? 0) == 0 }
}
