import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The lexers' shared word table: flags, kinds, case folding, and agreement with a
/// dictionary on words of every length the table treats apart (under 4, under 8, up to
/// 16, longer).
@Suite struct WordTableTests {
    /// Looks `text` up whole.
    static func value(_ table: WordTable, _ text: String) -> UInt32 {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { table.value($0, 0, $0.count) }
    }

    @Test func flagsAreTheUnionOfTheLists() {
        let table = WordTable([(1, "if else for"), (2, "for in"), (4, "in")])
        #expect(Self.value(table, "if") == 1)
        #expect(Self.value(table, "for") == 3)
        #expect(Self.value(table, "in") == 6)
        #expect(Self.value(table, "fo") == 0)
        #expect(Self.value(table, "fore") == 0)
        #expect(Self.value(table, "") == 0)
    }

    @Test func aKindIsTheFirstListsNamingTheWord() {
        let table = WordTable(kinds: [(3, "enum"), (1, "enum struct"), (2, "struct Int")])
        #expect(Self.value(table, "enum") == 3)
        #expect(Self.value(table, "struct") == 1)
        #expect(Self.value(table, "Int") == 2)
        #expect(Self.value(table, "int") == 0)
    }

    @Test func caseIsIgnoredOnlyWhenAsked() {
        let lists: [(UInt32, String)] = [(1, "SELECT user_defined_type_catalog INT8"), (2, "select")]
        let folding = WordTable(lists, ignoringCase: true)
        for word in ["select", "SELECT", "SeLeCt", "User_Defined_Type_Catalog", "int8", "INT8"] {
            #expect(Self.value(folding, word) != 0, "\(word)")
        }
        #expect(Self.value(folding, "select") == 3)
        #expect(Self.value(folding, "selec") == 0)
        #expect(Self.value(folding, "user_defined_type_catalog_") == 0)
        // Only capitals fold: `_` (0x5F) is not DEL (0x7F) with the case bit set.
        #expect(Self.value(folding, "user\u{7F}defined_type_catalog") == 0)
        let exact = WordTable(lists)
        #expect(Self.value(exact, "SELECT") == 1)
        #expect(Self.value(exact, "select") == 2)
        #expect(Self.value(exact, "Select") == 0)
    }

    @Test func looksUpARangeOfALine() {
        let table = WordTable("true false null")
        let line = Array("[true,nullx, false]".utf8)
        line.withUnsafeBufferPointer { line in
            #expect(table.contains(line, 1..<5))
            #expect(!table.contains(line, 6..<11))
            #expect(table.contains(line, 6..<10))
            #expect(table.contains(line, 13..<18))
            #expect(!table.contains(line, 13..<13))
        }
    }

    @Test func agreesWithADictionary() {
        // Words of 1 to 40 bytes (some non-ASCII), looked up as themselves, in other
        // cases, one byte changed, one byte longer and one shorter.
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % n
        }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789-.é".utf8)
        func lowered(_ word: [UInt8]) -> [UInt8] { word.map { ASCII.lower($0) } }
        var reference: [[UInt8]: UInt32] = [:]
        var foldedReference: [[UInt8]: UInt32] = [:]
        var lists: [(UInt32, String)] = []
        for list in 0..<6 {
            var words: [String] = []
            for _ in 0..<150 {
                var bytes: [UInt8] = []
                for _ in 0..<(1 + next(40)) { bytes.append(alphabet[next(alphabet.count)]) }
                let text = String(decoding: bytes, as: UTF8.self)
                let word = Array(text.utf8)
                words.append(text)
                reference[word, default: 0] |= 1 << UInt32(list)
                foldedReference[lowered(word), default: 0] |= 1 << UInt32(list)
            }
            lists.append((1 << UInt32(list), words.joined(separator: list % 2 == 0 ? " " : "\n")))
        }
        let table = WordTable(lists)
        let folding = WordTable(lists, ignoringCase: true)
        var probes: [[UInt8]] = []
        for word in reference.keys {
            probes.append(word)
            probes.append(word.map { ASCII.upper($0) })
            probes.append(word + [0x61])
            probes.append(Array(word.dropLast()))
            var changed = word
            changed[next(word.count)] ^= 1
            probes.append(changed)
        }
        for probe in probes {
            let found = probe.withUnsafeBufferPointer { table.value($0, 0, $0.count) }
            #expect(found == reference[probe] ?? 0, "\(probe)")
            let foundFolded = probe.withUnsafeBufferPointer { folding.value($0, 0, $0.count) }
            #expect(foundFolded == foldedReference[lowered(probe)] ?? 0, "\(probe)")
        }
    }
}
