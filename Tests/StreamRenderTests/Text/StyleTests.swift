import Testing
@testable import StreamRender

/// `Style` keeps its colours and attributes packed in one number: every field must
/// read back what was set, and styles must be equal exactly when their fields are.
@Suite struct StyleTests {
    static let colors: [StyleColor] = [.default, .ansi(0), .ansi(15), .palette(0), .palette(255),
                                       .rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(1, 2, 3), .rgb(0xAB, 0, 0xCD)]

    @Test func fieldsReadBackWhatWasSet() {
        for fg in Self.colors {
            for bg in Self.colors {
                for attributes: Style.Attributes in [[], .bold, [.italic, .inverse], [.bold, .dim, .italic, .underline, .strikethrough, .inverse]] {
                    let style = Style(foreground: fg, background: bg, attributes: attributes, hyperlink: "https://x")
                    #expect(style.foreground == fg && style.background == bg && style.attributes == attributes,
                            "\(fg) \(bg) \(attributes)")
                    #expect(style.hyperlink == "https://x")
                    // Setting one field leaves the others alone.
                    var changed = style
                    changed.foreground = .rgb(9, 8, 7)
                    #expect(changed.foreground == .rgb(9, 8, 7) && changed.background == bg && changed.attributes == attributes)
                    changed.background = .palette(7)
                    #expect(changed.foreground == .rgb(9, 8, 7) && changed.background == .palette(7) && changed.attributes == attributes)
                    changed.attributes = .underline
                    #expect(changed.foreground == .rgb(9, 8, 7) && changed.background == .palette(7) && changed.attributes == .underline)
                }
            }
        }
    }

    @Test func stylesAreEqualExactlyWhenTheirFieldsAre() {
        var styles: [Style] = []
        for fg in Self.colors {
            for bg in Self.colors.prefix(4) {
                for link in [nil, "a", "b"] {
                    styles.append(Style(foreground: fg, background: bg, attributes: link == "a" ? .bold : [], hyperlink: link))
                }
            }
        }
        var table = StyleTable()
        for (i, a) in styles.enumerated() {
            for (j, b) in styles.enumerated() {
                let same = a.foreground == b.foreground && a.background == b.background
                    && a.attributes == b.attributes && a.hyperlink == b.hyperlink
                #expect((a == b) == same && (a == b) == (i == j))
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
            let id = table.intern(a)
            #expect(table[id] == a)
        }
        #expect(table.count == styles.count + (styles.contains(.plain) ? 0 : 1))
        #expect(Style(foreground: .default, background: .default) == .plain)
    }
}
