import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct StyleTableTests {
    /// One id per distinct style, the same id for an equal style however it comes back
    /// (after many others, in another order, made anew), plain always 0; styles that
    /// differ only in their link are told apart, links equal as strings are one.
    @Test func stylesKeepTheirIds() {
        var styles: [Style] = []
        for k in 0..<64 {
            styles.append(Style(foreground: .ansi(UInt8(k % 16)), attributes: k < 16 ? [] : [.bold]))
            styles.append(Style(foreground: .rgb(UInt8(k), 0, 255), background: .palette(UInt8(k))))
        }
        for link in ["https://a.example", "https://b.example", "", "https://a.example/é"] {
            styles.append(Style(hyperlink: link))
            styles.append(Style(foreground: .ansi(1), hyperlink: link))
        }
        var seen: [Style] = []
        for style in styles where !seen.contains(style) { seen.append(style) }  // distinct, in order
        styles = seen
        var table = StyleTable()
        let ids = styles.map { table.intern($0) }
        #expect(Set(ids).count == styles.count && table.count == styles.count + (styles.contains(.plain) ? 0 : 1))
        #expect(table.intern(.plain) == .plain && table.id(of: .plain) == .plain)
        for k in stride(from: styles.count - 1, through: 0, by: -3) {
            // (`id(of:)` first: after `intern` the style is among the recent ones.)
            #expect(table.id(of: styles[k]) == ids[k], "style \(k)")
            #expect(table.intern(styles[k]) == ids[k] && table[ids[k]] == styles[k], "style \(k)")
        }
        #expect(table.id(of: Style(hyperlink: "https://c.example")) == .plain, "not interned")
        // A link written with a combining accent is the same string as the precomposed one.
        let decomposed = Style(hyperlink: "https://a.example/e\u{301}")
        let precomposed = ids[styles.firstIndex(of: Style(hyperlink: "https://a.example/é"))!]
        #expect(table.id(of: decomposed) == precomposed && table.intern(decomposed) == precomposed)
    }

    /// Ids filed under one hash are told apart by the owner's test, and are all found
    /// again after the index grows.
    @Test func idsOfOneHashAreToldApart() {
        var slots = IDSlots()
        for id in 0..<300 { slots.file(hash: UInt64(id % 3)) }
        for id in 0..<300 {
            #expect(slots.first(UInt64(id % 3), where: { $0 == Int32(id) }) == Int32(id), "id \(id)")
        }
        #expect(slots.first(3, where: { _ in true }) == nil && slots.first(1, where: { _ in false }) == nil)
    }
}
