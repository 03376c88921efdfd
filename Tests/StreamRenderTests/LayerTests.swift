import Foundation
import Testing

/// The dependency rule of ARCHITECTURE.md, checked on the sources: a file of a layer
/// (a folder of `Sources/StreamRender`) names no type declared in a layer it may not
/// use. Types are found by their top-level declarations; comments and string
/// literals are skipped, and a name the file declares itself (a nested type) is its own.
@Suite struct LayerTests {
    /// What each layer may use (besides itself). Keep in step with ARCHITECTURE.md.
    static let allowed: [String: Set<String>] = [
        "Unicode": [],
        "Text": ["Unicode"],
        "Layout": ["Unicode", "Text"],
        "Highlight": [],
        "Markdown": ["Unicode", "Text", "Highlight"],
        "Document": ["Unicode", "Text", "Layout", "Highlight", "Markdown"],
        "Events": ["Unicode"],
        "Pacing": [],
        "Screen": ["Unicode", "Text"],
        "Terminal": ["Unicode", "Text", "Screen"],
        "Model": ["Unicode", "Text", "Layout", "Highlight", "Markdown", "Document", "Events", "Pacing"],
        "Renderer": ["Unicode", "Text", "Layout", "Highlight", "Markdown", "Document", "Events", "Pacing", "Screen",
                     "Terminal", "Model"],
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/StreamRender")

    /// Every Swift file of each layer: (layer, file name, text).
    static func files() throws -> [(layer: String, name: String, text: String)] {
        var result: [(String, String, String)] = []
        let manager = FileManager.default
        for layer in try manager.contentsOfDirectory(atPath: sources.path).sorted() where !layer.hasSuffix(".docc") {
            let folder = sources.appendingPathComponent(layer)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            for case let path as String in manager.enumerator(atPath: folder.path)! where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                result.append((layer, path, text))
            }
        }
        return result
    }

    /// The text without comments and string literals.
    static func code(_ text: String) -> String {
        var out = "", chars = Array(text.unicodeScalars), i = 0
        while i < chars.count {
            let c = chars[i], next = i + 1 < chars.count ? chars[i + 1] : " "
            if c == "/" && next == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && next == "*" {
                i += 2
                while i + 1 < chars.count && !(chars[i] == "*" && chars[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "\"" {
                let triple = i + 2 < chars.count && chars[i + 1] == "\"" && chars[i + 2] == "\""
                i += triple ? 3 : 1
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if triple ? (i + 2 < chars.count && chars[i] == "\"" && chars[i + 1] == "\"" && chars[i + 2] == "\"") : chars[i] == "\"" || chars[i] == "\n" { break }
                    i += 1
                }
                i += triple ? 3 : 1
                out += "\"\""
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        return out
    }

    static func identifiers(_ code: String) -> [Substring] {
        code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Names declared by `code`: (name, whether at the top level).
    static func declarations(_ code: String) -> [(name: String, topLevel: Bool)] {
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        var result: [(String, Bool)] = []
        for line in code.split(separator: "\n") {
            let words = identifiers(String(line))
            for (k, word) in words.enumerated() where keywords.contains(word) && k + 1 < words.count {
                // `class func`, `class var`: members, not types.
                guard !["func", "var", "let", "override"].contains(words[k + 1]) else { continue }
                result.append((String(words[k + 1]), !line.hasPrefix(" ") && !line.hasPrefix("\t")))
                break
            }
        }
        return result
    }

    @Test func noFileUsesALayerItMayNot() throws {
        let files = try Self.files()
        var owner: [String: Set<String>] = [:]
        for file in files {
            for d in Self.declarations(Self.code(file.text)) where d.topLevel { owner[d.name, default: []].insert(file.layer) }
        }
        #expect(Set(files.map(\.layer)) == Set(Self.allowed.keys), "every layer has a rule")
        #expect(owner["StreamRenderer"] == ["Renderer"] && owner["UTF8Repair"] == ["Unicode"])  // the scan finds declarations
        var violations: [String] = []
        for file in files {
            let code = Self.code(file.text)
            let own = Set(Self.declarations(code).map(\.name))
            let may = Self.allowed[file.layer, default: []].union([file.layer])
            for name in Set(Self.identifiers(code).map(String.init)) where !own.contains(name) {
                for layer in owner[name, default: []] where !may.contains(layer) {
                    violations.append("\(file.layer)/\(file.name) uses \(name) (\(layer))")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.sorted().joined(separator: "\n"))")
    }

    @Test func theScanSeesAReference() {
        let code = Self.code("""
        // StreamRenderer in a comment
        let s = "StreamRenderer in a string"
        struct Local { var r: StreamRenderer? }
        """)
        let names = Set(Self.identifiers(code).map(String.init))
        #expect(names.contains("StreamRenderer") && names.contains("Local"))
        #expect(Self.identifiers(Self.code("// StreamRenderer\nlet x = \"StreamRenderer\"")).allSatisfy { $0 != "StreamRenderer" })
        #expect(Self.declarations(code).map(\.name) == ["Local"])
    }
}

/// The DocC landing page lists the public API by topic: every public top-level type,
/// and none of the package's internals.
@Suite struct DocumentationTests {
    @Test func theLandingPageListsEveryPublicType() throws {
        let page = try String(contentsOf: LayerTests.sources.appendingPathComponent("StreamRender.docc/StreamRender.md"),
                              encoding: .utf8)
        var types: [String] = [], internals: [String] = []
        for file in try LayerTests.files() {
            for line in LayerTests.code(file.text).split(separator: "\n") {
                // Public types, and those of the package's SPI (benchmarks, fuzzers) or
                // `package` ones, which are not API and must not be listed.
                let isPublic = line.hasPrefix("public ")
                guard isPublic || line.hasPrefix("@_spi(") || line.hasPrefix("package ") else { continue }
                let words = LayerTests.identifiers(String(line))
                if let k = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor", "typealias"].contains($0) }),
                   k + 1 < words.count, !["func", "var", "let"].contains(words[k + 1]) {
                    if isPublic { types.append(String(words[k + 1])) } else { internals.append(String(words[k + 1])) }
                }
            }
        }
        #expect(types.count > 50 && types.contains("AnswerModel") && internals.contains("StyledLine"))
        let missing = types.filter { !page.contains("``\($0)``") }
        #expect(missing.isEmpty, "not on the landing page: \(missing)")
        let listed = internals.filter { page.contains("``\($0)``") }
        #expect(listed.isEmpty, "not API, but on the landing page: \(listed)")
    }
}
