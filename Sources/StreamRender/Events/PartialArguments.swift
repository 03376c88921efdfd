/// Function-call arguments streamed as values at JSON paths (Gemini's `partialArgs`:
/// `{"jsonPath": "$.location", "stringValue": "Bos", "willContinue": true}`), rebuilt
/// into one JSON object: string pieces at one path are joined, and the paths make
/// the nesting (`$.a.b[0]`, `$['a b']`).
struct PartialArguments: Sendable {
    private indirect enum Node: Sendable {
        case object([(key: String, value: Node)])
        case array([Node])
        /// A JSON scalar, as text.
        case scalar(String)
        /// A string still being joined (unescaped).
        case text(String)
    }

    private var root = Node.object([])
    /// Arguments that came whole (`args`), used when no piece came.
    var whole: String?
    private var pieces = 0

    /// Adds one `partialArgs` element.
    ///
    /// - Complexity: O(d + n) in the path's depth and the value's bytes, plus the keys
    ///   of the objects on the path.
    mutating func add(_ piece: JSONValue) {
        guard let path = piece["jsonPath"]?.string, let steps = Self.steps(path) else { return }
        let value: Node
        if let s = piece["stringValue"]?.string {
            value = .text(s)
        } else if let n = piece["numberValue"]?.numberText {
            value = .scalar(n)
        } else if let b = piece["boolValue"]?.bool {
            value = .scalar(b ? "true" : "false")
        } else if piece["nullValue"] != nil {
            value = .scalar("null")
        } else {
            return
        }
        pieces += 1
        Self.put(value, at: steps[...], in: &root)
    }

    /// The arguments as a JSON object.
    var json: String {
        if pieces == 0, let whole { return whole }
        var out = ""
        Self.write(root, into: &out)
        return out
    }

    private enum Step { case key(String), index(Int) }

    /// `$.a.b[0]['c d']` as steps; nil for a path this reader does not follow.
    private static func steps(_ path: String) -> [Step]? {
        var chars = Array(path.unicodeScalars)[...]
        guard chars.first == "$" else { return nil }
        chars = chars.dropFirst()
        var steps: [Step] = []
        while let c = chars.first {
            if c == "." {
                chars = chars.dropFirst()
                let name = chars.prefix { $0 != "." && $0 != "[" }
                chars = chars.dropFirst(name.count)
                steps.append(.key(String(String.UnicodeScalarView(name))))
            } else if c == "[" {
                chars = chars.dropFirst()
                if let q = chars.first, q == "'" || q == "\"" {
                    chars = chars.dropFirst()
                    let name = chars.prefix { $0 != q }
                    chars = chars.dropFirst(name.count + 1)
                    steps.append(.key(String(String.UnicodeScalarView(name))))
                } else {
                    let digits = chars.prefix { $0 != "]" }
                    chars = chars.dropFirst(digits.count)
                    guard let n = Int(String(String.UnicodeScalarView(digits))), n >= 0, n < 1 << 16 else { return nil }
                    steps.append(.index(n))
                }
                guard chars.first == "]" else { return nil }
                chars = chars.dropFirst()
            } else {
                return nil
            }
        }
        return steps
    }

    private static func put(_ value: Node, at steps: ArraySlice<Step>, in node: inout Node) {
        guard let step = steps.first else {
            // A string piece continues the string there; anything else replaces it.
            if case .text(let old) = node, case .text(let more) = value { node = .text(old + more) } else { node = value }
            return
        }
        switch step {
        case .key(let key):
            var members: [(key: String, value: Node)] = []
            if case .object(let m) = node { members = m }
            let k = members.firstIndex { $0.key == key } ?? { members.append((key, .text(""))); return members.count - 1 }()
            if steps.count > 1, case .text("") = members[k].value { members[k].value = placeholder(steps.dropFirst().first!) }
            put(value, at: steps.dropFirst(), in: &members[k].value)
            node = .object(members)
        case .index(let i):
            var items: [Node] = []
            if case .array(let a) = node { items = a }
            while items.count <= i { items.append(steps.count > 1 ? placeholder(steps.dropFirst().first!) : .text("")) }
            put(value, at: steps.dropFirst(), in: &items[i])
            node = .array(items)
        }
    }

    private static func placeholder(_ next: Step) -> Node {
        if case .index = next { return .array([]) }
        return .object([])
    }

    private static func write(_ node: Node, into out: inout String) {
        switch node {
        case .object(let members):
            out += "{"
            for (k, member) in members.enumerated() {
                if k > 0 { out += ", " }
                quote(member.key, into: &out)
                out += ": "
                write(member.value, into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += ", " }
                write(item, into: &out)
            }
            out += "]"
        case .scalar(let text):
            out += text
        case .text(let s):
            quote(s, into: &out)
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
