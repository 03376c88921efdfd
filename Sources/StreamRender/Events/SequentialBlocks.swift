/// Content blocks for providers whose chunks carry parts or fields rather than block
/// indices (Gemini, Ollama): a run of text is one block and a run of thinking is
/// another, so a change of kind stops the open block and starts the next index; each
/// tool call is a whole block of its own (start, its input as one
/// ``DeltaKind/toolInput`` delta, stop), the same events an Anthropic `tool_use`
/// block produces.
///
/// Thinking, then text, then a tool call come out as blocks 0, 1 and 2.
struct SequentialBlocks: Sendable {
    private var assembler = BlockAssembler()
    /// The open block's index and whether it is thinking (else text).
    private var open: (index: Int, thinking: Bool)?
    private var nextIndex = 0

    init(assemblesText: Bool) {
        assembler.assemblesText = assemblesText
    }

    /// Adds text or thinking (`kind` is `.text` or `.thinking`) to the open block of that
    /// kind, starting one first if needed.
    ///
    /// - Complexity: O(n) in the text's bytes (amortized, when the text is assembled).
    mutating func add(_ kind: DeltaKind, _ text: String, _ emit: (StreamEvent) -> Void) {
        let thinking = kind == .thinking
        if open?.thinking != thinking {
            stop(emit)
            let index = nextIndex
            nextIndex += 1
            open = (index, thinking)
            let blockKind: ContentBlockKind = thinking ? .thinking : .text
            assembler.start(index, blockKind)
            emit(.blockStart(index: index, kind: blockKind))
        }
        let index = open!.index
        assembler.add(index, kind, text)
        emit(.delta(index: index, kind: kind, text: text))
    }

    /// A whole tool call: the open block stops, then the call's block starts, receives
    /// `inputJSON` and stops.
    ///
    /// - Complexity: O(n) in the input's bytes.
    mutating func toolCall(id: String, name: String, inputJSON: String, complete: Bool = true, _ emit: (StreamEvent) -> Void) {
        stop(emit)
        let index = nextIndex
        nextIndex += 1
        let kind = ContentBlockKind.toolUse(id: id, name: name)
        assembler.start(index, kind)
        emit(.blockStart(index: index, kind: kind))
        assembler.add(index, .toolInput, inputJSON)
        emit(.delta(index: index, kind: .toolInput, text: inputJSON))
        var block = assembler.stop(index) ?? ContentBlock(index: index, kind: kind)
        block.isComplete = complete
        emit(.blockStop(block))
    }

    /// A whole tool result: the open block stops, then the result's block starts and
    /// stops with `summary` as its text.
    ///
    /// - Complexity: O(1).
    mutating func toolResult(type: String, summary: String, _ emit: (StreamEvent) -> Void) {
        stop(emit)
        let index = nextIndex
        nextIndex += 1
        let kind = ContentBlockKind.toolResult(toolUseID: "", type: type)
        assembler.start(index, kind)
        assembler.setSummary(index, summary)
        emit(.blockStart(index: index, kind: kind))
        emit(.blockStop(assembler.stop(index) ?? ContentBlock(index: index, kind: kind)))
    }

    /// Stops the open block, if any.
    ///
    /// - Complexity: O(1).
    mutating func stop(_ emit: (StreamEvent) -> Void) {
        guard let (index, thinking) = open else { return }
        open = nil
        emit(.blockStop(assembler.stop(index) ?? ContentBlock(index: index, kind: thinking ? .thinking : .text)))
    }
}
