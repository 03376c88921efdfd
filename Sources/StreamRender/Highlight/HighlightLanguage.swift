/// A language the highlighter knows, with the names a code fence may give it.
public struct HighlightLanguage: Sendable, CustomStringConvertible {
    /// The canonical name (`swift`, `cpp`, `console`).
    public let name: String
    /// Other fence names for it (`py`, `c++`, `shell-session`).
    public let aliases: [String]
    /// Made on first use: a lexer's word tables are built then, so a process that
    /// highlights nothing (or one language) does not pay for all of them at start.
    private let makeLexer: @Sendable () -> any LineLexer

    /// A new lexer for the language (its tables are shared and built once).
    var lexer: any LineLexer { makeLexer() }

    init(_ name: String, aliases: [String] = [], lexer: @escaping @autoclosure @Sendable () -> any LineLexer) {
        self.name = name
        self.aliases = aliases
        self.makeLexer = lexer
    }

    public var description: String { name }

    /// Every language, in the order `stream-render tokens --help` lists them.
    ///
    /// Adding a language is one file in `Highlight/Languages/` and one line here.
    public static let all: [HighlightLanguage] = [
        HighlightLanguage("swift", lexer: SwiftLexer()),
        HighlightLanguage("python", aliases: ["py", "python3", "py3", "pyi", "sage"], lexer: PythonLexer()),
        HighlightLanguage("javascript", aliases: ["js", "jsx", "mjs", "cjs", "node"], lexer: JavaScriptLexer(typescript: false)),
        HighlightLanguage("typescript", aliases: ["ts", "tsx", "mts", "cts"], lexer: JavaScriptLexer(typescript: true)),
        HighlightLanguage("json", aliases: ["jsonc", "json5", "jsonl", "ndjson", "geojson"], lexer: JSONLexer()),
        HighlightLanguage("bash", aliases: ["sh", "zsh", "shell", "ksh", "shellscript", "env"], lexer: BashLexer()),
        HighlightLanguage("console", aliases: ["shell-session", "shellsession", "sh-session", "terminal", "bash-session"],
                          lexer: ConsoleLexer()),
        HighlightLanguage("rust", aliases: ["rs"], lexer: RustLexer()),
        HighlightLanguage("go", aliases: ["golang"], lexer: GoLexer()),
        HighlightLanguage("c", aliases: ["h"], lexer: CLexer()),
        HighlightLanguage("cpp", aliases: ["c++", "cxx", "cc", "hpp", "hxx", "h++"], lexer: CppLexer()),
        HighlightLanguage("java", lexer: JavaLexer()),
        HighlightLanguage("kotlin", aliases: ["kt", "kts"], lexer: KotlinLexer()),
        HighlightLanguage("csharp", aliases: ["cs", "c#"], lexer: CSharpLexer()),
        HighlightLanguage("ruby", aliases: ["rb", "gemfile", "rake"], lexer: RubyLexer()),
        HighlightLanguage("php", lexer: PHPLexer()),
        HighlightLanguage("sql", aliases: ["mysql", "postgresql", "postgres", "sqlite", "plpgsql"], lexer: SQLLexer()),
        HighlightLanguage("yaml", aliases: ["yml"], lexer: YAMLLexer()),
        HighlightLanguage("toml", lexer: TOMLLexer()),
        HighlightLanguage("html", aliases: ["htm", "xhtml"], lexer: MarkupLexer(html: true)),
        HighlightLanguage("xml", aliases: ["svg", "plist", "xsd", "xsl", "rss", "atom"], lexer: MarkupLexer(html: false)),
        HighlightLanguage("css", lexer: CSSLexer()),
        HighlightLanguage("diff", aliases: ["patch", "udiff"], lexer: DiffLexer()),
        HighlightLanguage("dockerfile", aliases: ["docker", "containerfile"], lexer: DockerfileLexer()),
        HighlightLanguage("makefile", aliases: ["make", "mk", "mf", "gnumakefile"], lexer: MakefileLexer()),
        HighlightLanguage("markdown", aliases: ["md", "mdown", "mkd"], lexer: MarkdownLexer()),
    ]

    /// The usual file extension of the language's source files (`swift`, `py`, `sh`).
    public var fileExtension: String {
        switch name {
        case "python": return "py"
        case "javascript": return "js"
        case "typescript": return "ts"
        case "bash", "console": return "sh"
        case "rust": return "rs"
        case "kotlin": return "kt"
        case "csharp": return "cs"
        case "ruby": return "rb"
        case "yaml": return "yml"
        case "markdown": return "md"
        case "makefile": return "mk"
        default: return name
        }
    }

    private static let byName: [String: HighlightLanguage] = {
        var table: [String: HighlightLanguage] = [:]
        for language in all {
            table[language.name] = language
            for alias in language.aliases { table[alias] = language }
        }
        return table
    }()

    /// The language a code fence's info string names, if it is one we know: its
    /// first word, ignoring case and the `{.lang}` / `language-` spellings.
    ///
    /// - Complexity: O(n) in the info string's length.
    public static func named(_ info: String) -> HighlightLanguage? {
        // ASCII (every fence we have seen) is read as bytes: character by character, and
        // `lowercased()`, cost thousands of instructions a fence. Other text keeps the
        // character rules (a Kelvin sign lowercases to `k`).
        var info = info
        let asciiKey: String? = info.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            func skipped(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x7B || b == 0x2E }  // space, tab, `{`, `.`
            func ends(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x2C || b == 0x7D || b == 0x7B }  // and `,`, `}`
            var start = 0
            while start < bytes.count && skipped(bytes[start]) { start += 1 }
            var end = start
            while end < bytes.count && !ends(bytes[end]) { end += 1 }
            var word = bytes[start..<end].map(ASCII.lower)
            if word.starts(with: "language-".utf8) { word.removeFirst("language-".utf8.count) }
            return String(decoding: word, as: UTF8.self)
        }
        if let asciiKey { return byName[asciiKey] }
        var word = Substring(info)
        word = word.drop { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "." }
        word = word.prefix { $0 != " " && $0 != "\t" && $0 != "," && $0 != "}" && $0 != "{" }
        var key = word.lowercased()
        if key.hasPrefix("language-") { key.removeFirst("language-".count) }
        return byName[key]
    }
}
