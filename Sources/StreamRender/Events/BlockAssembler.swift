/// Tracks content blocks by index and assembles their text, input JSON and
/// citations from deltas. Shared by the provider decoders.
struct BlockAssembler: Sendable {
    private(set) var open: [Int: ContentBlock] = [:]
    private(set) var order: [Int] = []

    mutating func start(_ index: Int, _ kind: ContentBlockKind) {
        if open[index] == nil { order.append(index) }
        open[index] = ContentBlock(index: index, kind: kind)
    }

    /// Adds a delta; a delta for a block never started starts one (lenient).
    mutating func add(_ index: Int, _ kind: DeltaKind, _ text: String) {
        if open[index] == nil {
            let blockKind: ContentBlockKind = switch kind {
            case .thinking, .signature: .thinking
            case .toolInput: .toolUse(id: "", name: "")
            default: .text
            }
            start(index, blockKind)
        }
        switch kind {
        case .text, .thinking, .refusal: open[index]!.text += text
        case .toolInput: open[index]!.inputJSON += text
        case .citations: open[index]!.citations.append(text)
        case .signature, .unknown: break
        }
    }

    mutating func stop(_ index: Int) -> ContentBlock? {
        guard let block = open.removeValue(forKey: index) else { return nil }
        order.removeAll { $0 == index }
        return block
    }

    /// Stops every open block, in the order they were started.
    mutating func stopAll() -> [ContentBlock] {
        let blocks = order.compactMap { open[$0] }
        open.removeAll()
        order.removeAll()
        return blocks
    }
}
