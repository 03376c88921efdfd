import ArgumentParser
import StreamRender

@main
struct StreamRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-render",
        abstract: "Render streaming text (LLM answers over server-sent events, or any growing text) in a terminal.",
        version: StreamRenderVersion.string
    )

    func run() throws {
        print("stream-render \(StreamRenderVersion.string)")
    }
}
