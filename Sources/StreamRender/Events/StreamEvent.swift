/// Token counts reported by a provider.
public struct Usage: Sendable, Equatable {
    public var inputTokens: Int?
    public var outputTokens: Int?

    public init(inputTokens: Int? = nil, outputTokens: Int? = nil) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }

    /// Later reports win where they say something.
    mutating func merge(_ other: Usage) {
        if let v = other.inputTokens { inputTokens = v }
        if let v = other.outputTokens { outputTokens = v }
    }
}

/// What a content block is.
public enum ContentBlockKind: Sendable, Equatable {
    case text
    case thinking
    case redactedThinking
    /// A client tool call: the model asks the caller to run `name`.
    case toolUse(id: String, name: String)
    /// A tool the provider runs itself (web search, code execution, an MCP server's
    /// tool, OpenAI's custom tools...).
    case serverToolUse(id: String, name: String)
    /// The result of a tool the provider ran (Anthropic `web_search_tool_result`,
    /// `mcp_tool_result`...): `type` names it; the block's text is a one-line summary.
    case toolResult(toolUseID: String, type: String)
    /// A block type this version does not know; passed on, never fatal.
    case unknown(type: String)

    public var isToolCall: Bool {
        switch self {
        case .toolUse, .serverToolUse: true
        default: false
        }
    }
}

/// What a delta adds to its block.
public enum DeltaKind: Sendable, Equatable {
    case text
    case thinking
    case signature
    /// A piece of a tool call's input JSON.
    case toolInput
    /// A citation (its JSON source).
    case citations
    /// OpenAI: the model refuses; the text says why.
    case refusal
    case unknown(type: String)
}

/// A content block assembled from its start and all its deltas.
public struct ContentBlock: Sendable, Equatable {
    public var index: Int
    public var kind: ContentBlockKind
    /// Text, thinking or refusal text.
    public var text: String
    /// A tool call's input JSON, concatenated from its pieces.
    public var inputJSON: String
    /// Citations as JSON sources, in arrival order.
    public var citations: [String]
    /// False when the stream ended before the block did (a truncated stream): what it
    /// received is all there is.
    public var isComplete: Bool

    public init(index: Int, kind: ContentBlockKind, text: String = "", inputJSON: String = "", citations: [String] = [],
                isComplete: Bool = true) {
        self.index = index
        self.kind = kind
        self.text = text
        self.inputJSON = inputJSON
        self.citations = citations
        self.isComplete = isComplete
    }
}

/// A typed event of an LLM response stream, common to every provider.
public enum StreamEvent: Sendable, Equatable {
    case messageStart(id: String?, model: String?, usage: Usage)
    case blockStart(index: Int, kind: ContentBlockKind)
    case delta(index: Int, kind: DeltaKind, text: String)
    /// A block ended; `block` is everything it received.
    case blockStop(ContentBlock)
    case messageDelta(stopReason: String?, stopSequence: String?, usage: Usage)
    /// The terminal event: the response is complete.
    case messageStop
    case ping
    /// The provider reported an error (e.g. `overloaded_error`).
    case error(type: String, message: String)
    /// An event type this version does not know; passed on, never fatal.
    case unknown(type: String)
}
