import Foundation
import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Markdown written by other projects to stress terminal renderers, and every GFM spec
/// example (Resources/real/markdown, SOURCES.md): no line wider than the width, tables
/// inside their boxes, the same output in any chunking, and no word of the spec's
/// expected HTML lost.
@Suite struct RealWorldMarkdownTests {
    static let documents: [String] = {
        let dir = Fixtures.url("real/markdown")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".md") && $0 != "SOURCES.md" }.sorted()
    }()

    static func render(_ text: [UInt8], width: Int, chunks: [ArraySlice<UInt8>]? = nil) -> String {
        let sink = BufferSink()
        let configuration = StreamRenderer.Configuration(output: .plain, layout: LayoutSettings(width: width),
            input: .init(format: .text))
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: ManualClock())
        for chunk in chunks ?? [text[...]] { renderer.feed(chunk) }
        renderer.finish()
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// No line is wider than `width`; a box-drawn table's lines start and end on its
    /// border and are all one width.
    static func expectInside(_ output: String, width: Int, _ name: String) {
        var tableWidth: Int?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let w = DisplayWidth.of(String(line), policy: .grapheme)
            #expect(w <= width, "\(name) at \(width): \(line.debugDescription) is \(w) wide")
            // A table line, whatever prefix (quote bar, list indent) it has.
            let body = line.drop { $0 != "┌" && $0 != "│" && $0 != "├" && $0 != "└" }
            guard let first = body.first, "┌├└".contains(first) || (first == "│" && tableWidth != nil) else {
                tableWidth = nil
                continue
            }
            if first == "┌" { tableWidth = w }
            #expect(w == tableWidth, "\(name) at \(width): table line \(line.debugDescription) is \(w) wide, the table \(tableWidth ?? -1)")
            #expect("┐┤┘│".contains(body.last ?? " "), "\(name) at \(width): \(line.debugDescription) leaves its box")
            if first == "└" { tableWidth = nil }
        }
    }

    @Test func theCorpusHasItsSize() {
        #expect(Self.documents.count >= 30)
    }

    @Test(arguments: documents)
    func aDocumentStaysInsideEveryWidthInAnyChunking(_ name: String) {
        let bytes = Fixtures.data("real/markdown/" + name)
        for width in [30, 50, 80] {
            let whole = Self.render(bytes, width: width)
            Self.expectInside(whole, width: width, name)
            if width == 50 {
                let seed = TestSeed.base(2301) &+ UInt64(name.utf8.count)
                var rng = SeededGenerator(seed: seed)
                let streamed = Self.render(bytes, width: width, chunks: randomChunks(bytes, using: &rng, maxChunk: 7))
                #expect(streamed == whole, "\(name): seed \(seed)")
            }
        }
    }

    struct Example: Decodable, CustomStringConvertible, Sendable {
        var example: Int
        var section: String
        var markdown: String
        var html: String
        var description: String { "GFM example \(example) (\(section))" }
    }

    static let examples: [Example] = (try? JSONDecoder().decode([Example].self, from: Data(Fixtures.data("real/markdown/gfm-spec-examples.json")))) ?? []

    /// The words of the spec's expected HTML: tags removed, the entities the spec's
    /// HTML uses decoded.
    static func words(ofHTML html: String) -> [String] {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Examples whose expected words this renderer shows otherwise, each with why (also in SOURCES.md).
    static let knownDeviations: [Int: String] = [:]

    @Test func everyGFMExampleKeepsEveryWordOfItsHTML() {
        #expect(Self.examples.count >= 670)
        var failures: [Int] = []
        for example in Self.examples where Self.knownDeviations[example.example] == nil {
            let output = Self.render(Array(example.markdown.utf8), width: 4096)
            // Tabs are spaces in the document's layout; spacing never counts.
            let flat = output.replacingOccurrences(of: "\t", with: " ")
            let missing = Self.words(ofHTML: example.html).filter { !flat.contains($0) }
            if !missing.isEmpty {
                failures.append(example.example)
                Issue.record("\(example): missing \(missing.prefix(5)) in \(output.prefix(200).debugDescription)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
