// A standalone `tokens` command built from Sources/StreamRender/Highlight alone
// (the lexers do not depend on the rest of the library), for working on a lexer
// without building the package: `Scripts/highlight/build-tokens` compiles it in
// seconds. Its output is that of `stream-render tokens`.
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var language: String?
var file: String?
var benchmark = false
while !arguments.isEmpty {
    let a = arguments.removeFirst()
    if a == "tokens" { continue }
    if a == "--language", !arguments.isEmpty { language = arguments.removeFirst() }
    else if a == "--benchmark" { benchmark = true }
    else { file = a }
}
guard let name = language, let lang = HighlightLanguage.named(name) else {
    FileHandle.standardError.write("usage: tokens --language L [--benchmark] [FILE]\n".data(using: .utf8)!)
    exit(2)
}
let data = file.map { FileManager.default.contents(atPath: $0) ?? Data() } ?? FileHandle.standardInput.readDataToEndOfFile()
let bytes = [UInt8](data)
if benchmark {
    // One pass over the input repeated to about 16 MB: MB/s on stderr.
    let repeats = max(1, (16 << 20) / max(1, bytes.count))
    let start = Date()
    var count = 0
    for _ in 0..<repeats {
        var stream = TokenStream(language: lang)
        count += stream.append(bytes).count + stream.finish().count
    }
    let seconds = Date().timeIntervalSince(start)
    let mb = Double(bytes.count * repeats) / 1e6
    FileHandle.standardError.write(String(format: "%@: %.1f MB/s (%d tokens)\n", name, mb / seconds, count).data(using: .utf8)!)
    exit(0)
}
var stream = TokenStream(language: lang)
let tokens = stream.append(bytes) + stream.finish()
// The lexer's contract (checked here because -O drops TokenSink's assertion):
// tokens in order, not overlapping, not empty, inside the input.
var previousEnd = 0
for t in tokens {
    if t.start < previousEnd || t.end <= t.start || t.end > bytes.count {
        FileHandle.standardError.write("bad token \(t) (previous ended at \(previousEnd))\n".data(using: .utf8)!)
        exit(1)
    }
    previousEnd = t.end
}
var out = ""
for t in tokens { out += t.description + "\n" }
FileHandle.standardOutput.write(out.data(using: .utf8)!)
