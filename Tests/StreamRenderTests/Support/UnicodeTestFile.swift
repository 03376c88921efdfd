/// One line of GraphemeBreakTest.txt / LineBreakTest.txt: the text and the UTF-8
/// offsets (after 0) where the file says there is a break (÷).
struct BreakTestCase {
    var lineNumber: Int
    var scalars: [Unicode.Scalar]
    var breaks: [Int]
    var source: String

    var utf8: [UInt8] {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return Array(String(s).utf8)
    }

    static func parse(_ text: String) -> [BreakTestCase] {
        var cases: [BreakTestCase] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if tokens.isEmpty { continue }
            var scalars: [Unicode.Scalar] = []
            var breaks: [Int] = []
            var offset = 0
            for token in tokens {
                if token == "÷" {
                    if offset > 0 { breaks.append(offset) }
                } else if token == "×" {
                    continue
                } else if let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) {
                    scalars.append(scalar)
                    offset += String(scalar).utf8.count
                }
            }
            cases.append(BreakTestCase(lineNumber: index + 1, scalars: scalars, breaks: breaks, source: String(rawLine)))
        }
        return cases
    }
}
