/// A ``StylePen`` that writes a terminal's SGR and OSC 8 links (colours downgraded to
/// what it shows): styled lines written without cursor movement, e.g. into a pipe for
/// `less -R` (`--color always`).
///
/// Not `Sendable`: it holds the pen (the look and link last written); one per output.
public final class SGRPen: LinePen {
    /// (Not checked for exclusive access at run time: a pen is used by one writer, and
    /// the check was a tenth of a pen change.)
    @exclusivity(unchecked) private var encoder: ANSIEncoder

    /// Pen changes worked out, not remembered (``ANSIEncoder``'s count).
    var changesWorkedOut: Int { encoder.changesWorkedOut }

    public init(capabilities: TerminalCapabilities) {
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: false)
    }

    /// - Complexity: O(1) plus the bytes appended.
    public func change(to style: Style, into out: inout [UInt8]) {
        encoder.setStyle(style, into: &out)
    }

    /// - Complexity: O(1) plus the bytes appended.
    public func change(to id: StyleID, in styles: StyleTable, into out: inout [UInt8]) {
        encoder.setStyle(id, styles: styles, into: &out)
    }

    /// - Complexity: O(1) plus the bytes written.
    package func change(to style: Style, into line: LineAssembly) {
        guard style.hyperlink == nil else {
            // (Rare: a link's change as the array path writes it.)
            var bytes: [UInt8] = []
            encoder.setStyle(style, into: &bytes)
            return bytes.withUnsafeBufferPointer { line.append($0) }
        }
        encoder.setLook(style.look, into: line)
    }

    /// - Complexity: O(1) plus the bytes written.
    package func change(toLook look: UInt64, into line: LineAssembly) {
        encoder.setLook(look, into: line)
    }
}
