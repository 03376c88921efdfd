import Foundation
@_exported import TestSupport

/// A random chunk size: often 1, usually small, sometimes large.
func randomChunkSize(using rng: inout SeededGenerator) -> Int {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0, 1, 2: return 1
    case 3, 4, 5: return Int.random(in: 1...8, using: &rng)
    case 6: return Int.random(in: 1...64, using: &rng)
    default: return Int.random(in: 1...1024, using: &rng)
    }
}

/// `items` cut into consecutive pieces of random sizes.
func randomPieces<C: Collection>(_ items: C, using rng: inout SeededGenerator) -> [C.SubSequence] {
    var pieces: [C.SubSequence] = []
    var start = items.startIndex
    while start != items.endIndex {
        let end = items.index(start, offsetBy: randomChunkSize(using: &rng), limitedBy: items.endIndex) ?? items.endIndex
        pieces.append(items[start..<end])
        start = end
    }
    return pieces
}
