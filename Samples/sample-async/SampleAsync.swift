// sample-async: renders any AsyncSequence of bytes with `await renderer.render(...)`,
// here standard input's (see InputChunks.swift), as it arrives: frames keep to the
// frame clock while the input stalls, and Ctrl-C cancels the rendering task, which
// ends the view with everything that arrived shown (exit 130).
//
//   swift run sample-async < Tests/StreamRenderTests/Resources/sse/coding-answer.openai.sse
//   curl -sN https://api.anthropic.com/v1/messages \
//     -H "x-api-key: $ANTHROPIC_API_KEY" -H "anthropic-version: 2023-06-01" \
//     -H "content-type: application/json" \
//     -d '{"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": true,
//          "messages": [{"role": "user", "content": "Explain SSE in three sentences."}]}' \
//     | swift run sample-async
//
// In a program the request is made with URLSession. The bodies are the same for any
// HTTP client; `"stream": true` asks for server-sent events, which the renderer
// detects (an API error body, e.g. a 401's, is detected too and ends with exit 1):
//
//   // Anthropic Messages API
//   var request = URLRequest(url: URL(string: "https://api.anthropic.com/v1/messages")!)
//   request.httpMethod = "POST"
//   request.setValue(apiKey, forHTTPHeaderField: "x-api-key")
//   request.setValue("2023-06-01", forHTTPHeaderField: "anthropic-version")
//   request.setValue("application/json", forHTTPHeaderField: "content-type")
//   request.httpBody = Data(#"""
//       {"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": true,
//        "messages": [{"role": "user", "content": "Explain SSE in three sentences."}]}
//       """#.utf8)
//
//   // OpenAI Chat Completions
//   var request = URLRequest(url: URL(string: "https://api.openai.com/v1/chat/completions")!)
//   request.httpMethod = "POST"
//   request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
//   request.setValue("application/json", forHTTPHeaderField: "content-type")
//   request.httpBody = Data(#"""
//       {"model": "gpt-4o", "stream": true,
//        "messages": [{"role": "user", "content": "Explain SSE in three sentences."}]}
//       """#.utf8)
//
//   // Apple platforms: URLSession.bytes(for:) is an AsyncSequence of bytes.
//   // (Linux's FoundationNetworking has no bytes(for:): use a URLSessionDataDelegate
//   // that yields each Data it receives into an AsyncStream, and render(chunks:).)
//   let (bytes, _) = try await URLSession.shared.bytes(for: request)
//   let outcome = await renderer.render(bytes)
import Foundation
import StreamRender

@main
enum SampleAsync {
    static func main() async {
        guard isatty(STDIN_FILENO) == 0 else {
            FileDescriptorSink(messagePrefix: "sample-async: ")
                .writeMessage("pipe a stream into it: swift run sample-async < answer.sse\n", kind: .error)
            exit(2)
        }
        let configuration = StreamRenderer.Configuration.forTerminal(TerminalSession())
        let rendering = Task { await render(standardInputWith: configuration) }
        // Ctrl-C cancels the task: the renderer shows what arrived and restores the terminal.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
        interrupt.setEventHandler { rendering.cancel() }
        interrupt.resume()
        let outcome = await rendering.value  // a failed stream was reported on stderr
        switch outcome.ending {
        case .complete: exit(0)
        case .interrupted: exit(130)
        case .readFailed: exit(3)
        default: exit(1)
        }
    }
}

/// Renders standard input with `configuration` (the terminal's: inline on a terminal,
/// plain lines into a pipe or on `TERM=dumb`, monochrome with `NO_COLOR`).
func render(standardInputWith configuration: StreamRenderer.Configuration) async -> StreamRenderer.Outcome {
    // The view to standard output, problems (an API error, a stream cut short) to standard error.
    let renderer = StreamRenderer(configuration: configuration, sink: FileDescriptorSink(messagePrefix: "sample-async: "))
    return await renderer.render(chunks: chunks(readingDescriptor: STDIN_FILENO))
}
