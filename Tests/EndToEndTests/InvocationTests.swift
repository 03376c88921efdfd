import Testing
import TestSupport
@testable import stream_render

/// The command line read without ArgumentParser (the common invocations, for a fast
/// start) means what ArgumentParser reads from it.
@Suite struct InvocationTests {
    static func parsed(_ arguments: [String]) throws -> Invocation {
        let command = try #require(try StreamRenderCommand.parseAsRoot(arguments) as? StreamRenderCommand)
        return Invocation(command)
    }

    @Test(arguments: [[], ["answer.sse"], ["-"], [""], ["a file with spaces.md"], ["--"]])
    func withoutOptionsMeansWhatArgumentParserReads(_ arguments: [String]) throws {
        let fast = Invocation.withoutOptions(arguments)
        if arguments == ["--"] {
            #expect(fast == nil)  // an option-like word: ArgumentParser's
            return
        }
        #expect(try fast == Self.parsed(arguments))
        #expect(fast?.input.file == arguments.first)
    }

    @Test func theDefaultsAreTheOptionsDefaults() throws {
        let parsed = try Self.parsed([])
        #expect(parsed == Invocation())
        // And they differ from a parse with options, so the comparison can fail.
        #expect(try Self.parsed(["--pace", "off"]) != Invocation())
        #expect(try Self.parsed(["--status", "on"]) != Invocation())
        #expect(try Self.parsed(["--no-color"]) != Invocation())
    }

    @Test(arguments: [["-w", "60"], ["--help"], ["help"], ["tokens"], ["--version"], ["a.sse", "b.sse"], ["--stats", "a.sse"]])
    func anythingElseIsArgumentParsers(_ arguments: [String]) {
        #expect(Invocation.withoutOptions(arguments) == nil)
    }

    /// Random command lines of the common options (in any order, with or without a
    /// FILE, values valid and not): read without ArgumentParser exactly when
    /// ArgumentParser accepts them, and then to the same values.
    @Test func commonOptionsMeanWhatArgumentParserReads() throws {
        let seed = TestSeed.base(0x5EED_0024)
        var rng = SeededGenerator(seed: seed)
        let choices: [[String]?] = [["--color", "always"], ["--color", "never"], ["--color", "auto"], ["--color", "blue"],
                                    ["--output", "ansi"], ["--output", "plain"], ["--output", "html"],
                                    ["--pace", "off"], ["--pace", "200"], ["--pace", "0"], ["--pace", "1e3"],
                                    ["--width", "0"], ["--width", "60"], ["-w", "33"], ["-w", "x"], ["--width", "-4"],
                                    ["--height", "24"], ["--height", "0"], ["--markdown", "off"], ["--markdown", "on"],
                                    ["a.md"], ["-"], ["b.md"], ["--theme", "light"], ["--theme", "pink"], ["--color"], ["--width=80"],
                                    ["--format", "anthropic"], ["-f", "text"], ["--format", "sse-text"], ["--format", "xml"],
                                    ["--width-policy", "wcwidth"], ["--width-policy", "none"], ["--show-thinking"],
                                    ["--no-color"], ["--fullscreen"], ["--math", "off"], ["--math", "maybe"],
                                    ["--fps", "30"], ["--fps", "0"], ["--fps", "x"], ["--max-lines", "100"], ["--max-lines", "-3"],
                                    ["--tab-size", "4"], ["--tab-size", "65"], ["--max-lag", "500"], ["--drain", "-1"],
                                    ["--drain", "100"], ["--max-event-bytes", "1024"], ["--idle-timeout", "2.5"],
                                    ["--idle-timeout", "-1"], ["--replay-rate", "30"], ["--replay-rate", "abc"], ["--replay"],
                                    ["--pace-words"], ["--stats"], ["--verbose"], ["--status", "on"], ["--status", "maybe"]]
        var fastReads = 0
        for iteration in 0..<300 {
            var arguments: [String] = [], files: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let piece = choices.randomElement(using: &rng)!!
                arguments += piece
                if piece.count == 1 && (piece[0] == "-" || !piece[0].hasPrefix("-")) { files += piece }
            }
            let fast = Invocation.withCommonOptions(arguments)
            let parsed = try? Self.parsed(arguments)
            // ArgumentParser reads a repeated option's last value; the fast reading leaves it.
            if fast != nil || parsed == nil {
                #expect(fast == parsed, "seed \(seed) iteration \(iteration): \(arguments)")
            }
            if let fast {
                fastReads += 1
                #expect(files.count <= 1 && fast.input.file == files.first, "seed \(seed) iteration \(iteration): \(arguments)")
            }
        }
        #expect(fastReads > 50)
        for arguments in [["--color", "always", "--color", "never"], ["--output", "ansi", "--width", "0"], ["--width=80"],
                          ["--color"], ["a.md", "b.md"], ["--math", "off", "--math", "on"], ["--format", "text", "-f", "text"],
                          ["--fps", "--max-lines"], ["--save-code", "dir"], ["--demo"],
                          ["--show-thinking", "--show-thinking"], ["help"], ["--", "a.md"]] {
            #expect(Invocation.withCommonOptions(arguments) == nil, "\(arguments)")
        }
        #expect(try Invocation.withCommonOptions(["--color", "always", "a.md"]) == Self.parsed(["--color", "always", "a.md"]))
        #expect(Invocation.withCommonOptions(["--color", "always"]) != Invocation())
        // The options added to the fast reading read as ArgumentParser reads them.
        for arguments in [["-f", "anthropic", "--theme", "light"], ["--width-policy", "scalars", "--show-thinking", "a.sse"],
                          ["--no-color", "--fullscreen", "--format", "text"],
                          ["--fps", "30", "--max-lines", "500", "--drain", "0", "--max-lag", "50", "--tab-size", "2"],
                          ["--idle-timeout", "0.5", "--replay", "--replay-rate", "10", "--max-event-bytes", "4096", "a.sse"],
                          ["--stats", "--verbose", "--pace-words", "--status", "off", "--math", "off"]] {
            #expect(try Invocation.withCommonOptions(arguments) == Self.parsed(arguments), "\(arguments)")
            #expect(Invocation.withCommonOptions(arguments) != Invocation(), "\(arguments)")
        }
    }
}
