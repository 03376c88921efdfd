import Testing
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
}
