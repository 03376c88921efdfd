/// LaTeX math as Unicode text: Greek letters, operators, relations, arrows, sets,
/// super- and subscripts where Unicode has them, fractions, roots, accents and
/// matrices, on one line. What it does not know is left as written, never dropped.
/// The rules, one by one, are in docs/decisions/0020-math.md.
public enum MathText {
    /// `source` (the LaTeX between the delimiters) as Unicode text.
    ///
    /// - Complexity: O(n) in the scalars of `source` (each is read once; nested
    ///   groups are rendered once each).
    public static func unicode(_ source: String) -> String {
        var parser = Parser(Array(source.unicodeScalars))
        return collapsed(parser.sequence(until: .end))
    }

    /// `text` raised: each character's superscript form, or nil when one has none.
    ///
    /// - Complexity: O(n) in the characters of `text`.
    static func superscript(_ text: String) -> String? {
        var out = ""
        for ch in text {
            guard let raised = Parser.superscripts[ch] else { return nil }
            out.append(raised)
        }
        return out
    }

    /// The UTF-8 of a number's decimal digits raised (`superscript` of its digits,
    /// without a string a digit: a footnote reference cost 2,000 instructions).
    static func raisedDigits(_ number: Int) -> [UInt8] {
        if number < 0 { return Array(superscript(String(number))!.utf8) }
        var digits: [UInt8] = []
        var rest = number
        repeat {
            let d = rest % 10
            rest /= 10
            // ¹ ² ³ are Latin-1 (C2 B9, C2 B2, C2 B3); the others U+2070 + d (E2 81 B0 + d).
            switch d {
            case 1: digits += [0xB9, 0xC2]
            case 2, 3: digits += [0xB0 + UInt8(d), 0xC2]
            default: digits += [0xB0 + UInt8(d), 0x81, 0xE2]
            }
        } while rest > 0
        return digits.reversed()
    }

    /// Runs of whitespace as one space, trimmed.
    static func collapsed(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for s in text.unicodeScalars {
            if s == " " || s == "\t" || s == "\n" || s == "\r" {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(s)
            }
        }
        return String(out)
    }

    private enum Stop: Equatable {
        case end
        case brace
        case environment(String)
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        /// Inside a matrix-like environment: `&` and `\\` separate cells and rows.
        var inEnvironment = false

        init(_ scalars: [Unicode.Scalar]) { s = scalars }

        var atEnd: Bool { i >= s.count }

        /// Items up to `stop` (consumed), rendered.
        mutating func sequence(until stop: Stop) -> String {
            var out = ""
            while i < s.count {
                let c = s[i]
                if c == "}" {
                    if stop == .brace { i += 1; return out }
                    out += "}"  // a stray brace stays
                    i += 1
                    continue
                }
                if case .environment(let name) = stop, c == "\\", let closed = matchEnd(name) {
                    i = closed
                    return out
                }
                if c == "^" || c == "_" {
                    i += 1
                    out += script(superscript: c == "^")
                    continue
                }
                if c == "&" && inEnvironment { i += 1; out += " "; continue }
                out += item() ?? ""
            }
            if stop == .brace { out = "{" + out }  // an unclosed group stays as written
            return out
        }

        /// The index after `\end{name}` when it starts at `i`.
        func matchEnd(_ name: String) -> Int? {
            let word = Array("\\end{\(name)}".unicodeScalars)
            guard i + word.count <= s.count else { return nil }
            for k in 0..<word.count where s[i + k] != word[k] { return nil }
            return i + word.count
        }

        /// One item: a group, a command, or a character; nil at the end or before `}`.
        mutating func item() -> String? {
            guard i < s.count, s[i] != "}" else { return nil }
            let c = s[i]
            i += 1
            switch c {
            case "{": return sequence(until: .brace)
            case "\\": return command()
            case "'": return "′"
            case "~": return " "
            default: return String(c)
            }
        }

        /// The next item as a command's argument: a group, a command or a character,
        /// skipping spaces before it (`\frac 12`); nil when there is none.
        mutating func argument() -> String? {
            while i < s.count && s[i] == " " { i += 1 }
            guard i < s.count, s[i] != "}", s[i] != "^", s[i] != "_" else { return nil }
            return item()
        }

        /// The raw text of a `{…}` group at `i` (for `\text{…}` and environment names).
        mutating func rawGroup() -> String? {
            var k = i
            while k < s.count && s[k] == " " { k += 1 }
            guard k < s.count, s[k] == "{" else { return nil }
            var depth = 0
            var out = String.UnicodeScalarView()
            var j = k
            while j < s.count {
                let c = s[j]
                if c == "{" { depth += 1; if depth == 1 { j += 1; continue } }
                if c == "}" {
                    depth -= 1
                    if depth == 0 { i = j + 1; return String(out) }
                }
                out.append(c)
                j += 1
            }
            return nil
        }

        mutating func script(superscript: Bool) -> String {
            let mark = superscript ? "^" : "_"
            // `^\circ` is a degree sign, `^\prime` a prime.
            for (word, symbol) in [("\\circ", "°"), ("{\\circ}", "°"), ("\\prime", "′"), ("{\\prime}", "′")] {
                let w = Array(word.unicodeScalars)
                if superscript && i + w.count <= s.count && Array(s[i..<(i + w.count)]) == w
                    && (i + w.count == s.count || !Self.isLetter(s[i + w.count]) || word.hasPrefix("{")) {
                    i += w.count
                    return symbol
                }
            }
            guard let argument = argument() else { return mark }
            let text = argument.filter { $0 != " " }
            let table = superscript ? Self.superscripts : Self.subscripts
            var mapped = ""
            for ch in text {
                guard let m = table[ch] else {
                    return text.count > 1 ? "\(mark)(\(text))" : mark + text
                }
                mapped.append(m)
            }
            return text.isEmpty ? mark : mapped
        }

        static func isLetter(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
        }

        mutating func command() -> String {
            guard i < s.count else { return "\\" }
            let first = s[i]
            if !Self.isLetter(first) {
                i += 1
                switch first {
                case "{", "}", "%", "$", "&", "#", "_": return String(first)
                case "|": return "‖"
                case "\\": return inEnvironment ? "; " : " "
                case ",", ":", ";", " ", ">": return " "
                case "!": return ""
                default: return "\\" + String(first)
                }
            }
            var name = ""
            while i < s.count && Self.isLetter(s[i]) {
                name.unicodeScalars.append(s[i])
                i += 1
            }
            if let symbol = Self.symbols[name] { return symbol }
            if Self.names.contains(name) { return name == "bmod" ? "mod" : name }
            if Self.ignored.contains(name) {
                if (name == "left" || name == "right") && i < s.count && s[i] == "." { i += 1 }
                return ""
            }
            let start = i
            if let result = known(name) { return result }
            i = start
            return unknown(name)
        }

        /// `\name` left as written, with the groups right after it in braces.
        mutating func unknown(_ name: String) -> String {
            var out = "\\" + name
            while i < s.count && s[i] == "{" {
                i += 1
                out += "{" + sequence(until: .brace) + "}"
            }
            return out
        }

        /// The commands with arguments; nil when their arguments are missing.
        mutating func known(_ name: String) -> String? {
            switch name {
            case "quad": return " "
            case "qquad": return "  "
            case "not":
                while i < s.count && s[i] == " " { i += 1 }
                if i < s.count && s[i] == "=" { i += 1; return "≠" }
                let w = Array("\\in".unicodeScalars)
                if i + w.count <= s.count && Array(s[i..<(i + w.count)]) == w
                    && (i + w.count == s.count || !Self.isLetter(s[i + w.count])) {
                    i += w.count
                    return "∉"
                }
                return nil
            case "mathbb", "mathcal", "mathfrak":
                guard let a = argument() else { return nil }
                return String(a.unicodeScalars.map { Self.letter($0, font: name) }.reduce(into: String.UnicodeScalarView()) { $0.append($1) })
            case "mathbf", "boldsymbol", "mathrm", "mathit", "mathsf", "mathtt", "mathnormal", "operatorname", "bm":
                return argument()
            case "text", "textrm", "textbf", "textit", "textsf", "texttt", "mbox", "textnormal":
                return rawGroup()
            case "frac", "dfrac", "tfrac", "cfrac":
                guard let a = argument(), let b = argument() else { return nil }
                let (x, y) = (MathText.collapsed(a), MathText.collapsed(b))
                let (sx, sy) = (Self.isSimple(x), Self.isSimple(y))
                if sx && sy { return "\(x)⁄\(y)" }
                return (sx ? x : "(\(x))") + "/" + (sy ? y : "(\(y))")
            case "sqrt":
                var index: String?
                if i < s.count && s[i] == "[" {
                    guard let close = s[i...].firstIndex(of: "]") else { return nil }
                    var inner = Parser(Array(s[(i + 1)..<close]))
                    index = MathText.collapsed(inner.sequence(until: .end))
                    i = close + 1
                }
                guard let a = argument() else { return nil }
                let x = MathText.collapsed(a)
                let body = Self.isSimple(x) ? x : "(\(x))"
                guard let index else { return "√" + body }
                if index == "3" { return "∛" + body }
                if index == "4" { return "∜" + body }
                if !index.isEmpty, let raised = MathText.superscript(index) { return raised + "√" + body }
                return "root(\(index))(\(x))"
            case "hat", "widehat", "bar", "overline", "vec", "dot", "ddot", "tilde", "widetilde":
                guard let a = argument() else { return nil }
                let mark: Character = switch name {
                case "hat", "widehat": "\u{302}"
                case "bar", "overline": "\u{305}"
                case "vec": "\u{20D7}"
                case "dot": "\u{307}"
                case "ddot": "\u{308}"
                default: "\u{303}"
                }
                var out = ""
                for ch in MathText.collapsed(a).unicodeScalars {
                    out.unicodeScalars.append(ch)
                    if ch != " " { out.unicodeScalars.append(mark.unicodeScalars.first!) }
                }
                return out
            case "binom", "dbinom", "tbinom":
                guard let n = argument(), let k = argument() else { return nil }
                return "C(\(MathText.collapsed(n)), \(MathText.collapsed(k)))"
            case "pmod":
                guard let n = argument() else { return nil }
                return "(mod \(MathText.collapsed(n)))"
            case "begin":
                guard let env = rawGroup(), let wrap = Self.environments[env] else { return nil }
                if env == "array" { _ = rawGroup() }
                let outer = inEnvironment
                inEnvironment = true
                let body = MathText.collapsed(sequence(until: .environment(env)))
                inEnvironment = outer
                // Cells one space apart, rows `; ` apart, nothing before a `;`.
                var rows = body.replacingSpaceBeforeSemicolons()
                while rows.hasSuffix(";") { rows.removeLast(); rows = MathText.collapsed(rows) }
                return wrap.0 + rows + wrap.1
            default:
                return nil
            }
        }

        /// Letters, digits and `.` only (any script), not empty.
        static func isSimple(_ text: String) -> Bool {
            !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
        }

        static func letter(_ c: Unicode.Scalar, font: String) -> Unicode.Scalar {
            let v = c.value
            let isUpper = v >= 0x41 && v <= 0x5A, isLower = v >= 0x61 && v <= 0x7A, isDigit = v >= 0x30 && v <= 0x39
            switch font {
            case "mathbb":
                let holes: [Unicode.Scalar: Unicode.Scalar] = ["C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"]
                if let h = holes[c] { return h }
                if isUpper { return Unicode.Scalar(0x1D538 + v - 0x41)! }
                if isLower { return Unicode.Scalar(0x1D552 + v - 0x61)! }
                if isDigit { return Unicode.Scalar(0x1D7D8 + v - 0x30)! }
            case "mathcal":
                let holes: [Unicode.Scalar: Unicode.Scalar] = ["B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ"]
                if let h = holes[c] { return h }
                if isUpper { return Unicode.Scalar(0x1D49C + v - 0x41)! }
            default:
                let holes: [Unicode.Scalar: Unicode.Scalar] = ["C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"]
                if let h = holes[c] { return h }
                if isUpper { return Unicode.Scalar(0x1D504 + v - 0x41)! }
            }
            return c
        }

        static let environments: [String: (String, String)] = [
            "matrix": ("", ""), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"),
            "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖"), "cases": ("{", "}"), "aligned": ("", ""),
            "align": ("", ""), "align*": ("", ""), "array": ("", ""), "gathered": ("", ""), "split": ("", ""),
        ]

        static let names: Set<String> = [
            "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
            "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "dim", "ker", "gcd", "arg",
            "deg", "Pr", "mod", "bmod",
        ]

        static let ignored: Set<String> = [
            "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
            "displaystyle", "textstyle", "limits", "nolimits",
        ]

        static let symbols: [String: String] = [
            // Greek
            "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
            "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
            "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
            "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
            "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
            "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
            "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
            // Operators
            "times": "×", "cdot": "⋅", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆",
            "circ": "∘", "bullet": "•", "oplus": "⊕", "otimes": "⊗", "odot": "⊙", "cup": "∪", "cap": "∩",
            "setminus": "∖", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬",
            "nabla": "∇", "partial": "∂", "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬",
            "iiint": "∭", "oint": "∮", "bigcup": "⋃", "bigcap": "⋂",
            // Relations
            "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
            "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫",
            "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
            "supseteq": "⊇", "perp": "⊥", "parallel": "∥", "mid": "∣", "models": "⊨", "vdash": "⊢",
            "prec": "≺", "succ": "≻", "preceq": "⪯", "succeq": "⪰", "doteq": "≐",
            // Arrows
            "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
            "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "impliedby": "⟸",
            "iff": "⟺", "mapsto": "↦", "uparrow": "↑", "downarrow": "↓", "longrightarrow": "⟶",
            "longleftarrow": "⟵", "hookrightarrow": "↪", "rightleftharpoons": "⇌",
            // Other
            "infty": "∞", "forall": "∀", "exists": "∃", "nexists": "∄", "emptyset": "∅", "varnothing": "∅",
            "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "prime": "′", "hbar": "ℏ",
            "ell": "ℓ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ", "angle": "∠", "triangle": "△", "degree": "°",
            "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋",
            "vert": "|", "lvert": "|", "rvert": "|", "Vert": "‖", "lVert": "‖", "rVert": "‖", "colon": ":",
            "top": "⊤", "bot": "⊥", "checkmark": "✓", "dagger": "†", "therefore": "∴", "because": "∵",
            "square": "□",
        ]

        static let superscripts: [Character: Character] = {
            var t: [Character: Character] = [:]
            for (a, b) in zip("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾") { t[a] = b }
            for (a, b) in zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ") { t[a] = b }
            for (a, b) in zip("ABDEGHIJKLMNOPRTUVW", "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ") { t[a] = b }
            for (a, b) in zip("βγδθφχ", "ᵝᵞᵟᶿᵠᵡ") { t[a] = b }
            t["′"] = "′"
            return t
        }()

        static let subscripts: [Character: Character] = {
            var t: [Character: Character] = [:]
            for (a, b) in zip("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎") { t[a] = b }
            for (a, b) in zip("aehijklmnoprstuvx", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ") { t[a] = b }
            for (a, b) in zip("βγρφχ", "ᵦᵧᵨᵩᵪ") { t[a] = b }
            return t
        }()
    }
}

extension String {
    fileprivate func replacingSpaceBeforeSemicolons() -> String {
        var out = ""
        for ch in self {
            if ch == ";" && out.last == " " { out.removeLast() }
            out.append(ch)
        }
        return out
    }
}
