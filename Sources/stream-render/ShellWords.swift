/// Splits an environment variable's value into words as a POSIX shell would
/// (`STREAM_RENDER_OPTS="--theme light --pace 200"`): white space separates words,
/// single quotes keep everything, double quotes keep everything but `\"` and `\\`,
/// a backslash outside quotes keeps the next character. No expansion of any kind.
enum ShellWords {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func split(_ text: String) -> Result<[String], Failure> {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = text.makeIterator()
        while let c = chars.next() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let d = chars.next() {
                    if d == "'" { closed = true; break }
                    word.append(d)
                }
                if !closed { return .failure(Failure(description: "unterminated single quote")) }
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\" {
                        guard let e = chars.next() else { break }
                        if e != "\"" && e != "\\" { word.append("\\") }
                        word.append(e)
                    } else {
                        word.append(d)
                    }
                }
                if !closed { return .failure(Failure(description: "unterminated double quote")) }
            case "\\":
                inWord = true
                if let d = chars.next() { word.append(d) }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        return .success(words)
    }
}
