/// Tracks content blocks by index and assembles their text, input JSON and
/// citations from deltas. Shared by the provider decoders.
///
/// Open blocks are few (one to three), so they live in a small array searched
/// linearly: cheaper per delta than hashing.
struct BlockAssembler: Sendable {
    private var blocks: [ContentBlock] = []
    /// Whether a block's text is kept whole (see ``ResponseDecoder/init(format:maximumEventBytes:assemblesText:)``);
    /// when not, text is dropped and tool input is kept up to ``summaryBytes``.
    var assemblesText = true
    static let summaryBytes = 4096

    /// The open block with `index`, if any.
    func block(_ index: Int) -> ContentBlock? {
        blocks.first { $0.index == index }
    }

    private func position(_ index: Int) -> Int? {
        for k in blocks.indices where blocks[k].index == index { return k }
        return nil
    }

    mutating func start(_ index: Int, _ kind: ContentBlockKind) {
        if let k = position(index) {
            blocks[k] = ContentBlock(index: index, kind: kind)
        } else {
            blocks.append(ContentBlock(index: index, kind: kind))
        }
    }

    /// Adds a delta; a delta for a block never started starts one (lenient).
    mutating func add(_ index: Int, _ kind: DeltaKind, _ text: String) {
        if position(index) == nil {
            let blockKind: ContentBlockKind = switch kind {
            case .thinking, .signature: .thinking
            case .toolInput: .toolUse(id: "", name: "")
            default: .text
            }
            start(index, blockKind)
        }
        let k = position(index)!
        switch kind {
        case .text, .thinking, .refusal:
            if assemblesText { blocks[k].text += text }
        case .toolInput:
            if assemblesText || blocks[k].inputJSON.utf8.count < Self.summaryBytes { blocks[k].inputJSON += text }
        case .citations: blocks[k].citations.append(text)
        case .signature, .unknown: break
        }
    }

    mutating func stop(_ index: Int) -> ContentBlock? {
        guard let k = position(index) else { return nil }
        return blocks.remove(at: k)
    }

    /// Stops every open block, in the order they were started; `complete` false marks
    /// them cut short (the stream ended inside them).
    mutating func stopAll(complete: Bool = true) -> [ContentBlock] {
        defer { blocks.removeAll() }
        if !complete { for k in blocks.indices { blocks[k].isComplete = false } }
        return blocks
    }

    /// Sets a block's input when its deltas brought none (a tool call whose input came
    /// whole with its start or end).
    mutating func fillInput(_ index: Int, _ json: String) {
        guard let k = position(index), blocks[k].inputJSON.isEmpty else { return }
        blocks[k].inputJSON = assemblesText ? json : String(decoding: json.utf8.prefix(Self.summaryBytes), as: UTF8.self)
    }

    /// Sets a block's one-line summary (a tool result's), kept whatever `assemblesText` says.
    mutating func setSummary(_ index: Int, _ text: String) {
        guard let k = position(index) else { return }
        blocks[k].text = text
    }
}
