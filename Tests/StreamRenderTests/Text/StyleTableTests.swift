import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct StyleTableTests {
    /// One id per distinct style, the same id for an equal style however it comes back
    /// (after many others, in another order, made anew), plain always 0; styles that
    /// differ only in their link are told apart.
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
        styles = Array(Set(styles))  // distinct (and in no particular order)
        var table = StyleTable()
        let ids = styles.map { table.intern($0) }
        #expect(Set(ids).count == styles.count && table.count == styles.count + (styles.contains(.plain) ? 0 : 1))
        #expect(table.intern(.plain) == .plain && table.id(of: .plain) == .plain)
        for k in stride(from: styles.count - 1, through: 0, by: -3) {
            #expect(table.intern(styles[k]) == ids[k] && table.id(of: styles[k]) == ids[k] && table[ids[k]] == styles[k])
        }
        #expect(table.id(of: Style(hyperlink: "https://c.example")) == .plain, "not interned")
        #expect(table.intern(Style(foreground: .ansi(1), hyperlink: "https://b.example"))
                == ids[styles.firstIndex(of: Style(foreground: .ansi(1), hyperlink: "https://b.example"))!])
    }
}
