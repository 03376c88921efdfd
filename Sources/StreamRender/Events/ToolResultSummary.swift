/// One line saying what a server tool's result holds (search hits, an MCP tool's text,
/// an error code), for the side output: results arrive whole and can be large, so
/// only their gist is shown.
enum ToolResultSummary {
    /// The gist of a result's `content` (a string, an array of parts, or an object).
    ///
    /// - Complexity: O(n) in the content's bytes.
    static func summary(_ content: JSONValue?) -> String {
        guard let content else { return "" }
        switch content.kind {
        case .string:
            return content.string ?? ""
        case .array:
            let items = content.elements.map(item).filter { !$0.isEmpty }
            if items.count > 1, content.elements.allSatisfy({ $0["url"] != nil }) {
                return "\(items.count) results: " + items.joined(separator: "; ")
            }
            return items.joined(separator: "; ")
        case .object:
            return item(content)
        default:
            return content.sourceText
        }
    }

    private static func item(_ part: JSONValue) -> String {
        if let code = part["error_code"]?.string { return "error: \(code)" }
        if let text = part["text"]?.string { return text }
        if let title = part["title"]?.string {
            return part["url"]?.string.map { "\(title) (\($0))" } ?? title
        }
        if let url = part["url"]?.string { return url }
        if part["stdout"] != nil || part["stderr"] != nil {
            let out = [part["stdout"]?.string, part["stderr"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
            return out.joined(separator: " ")
        }
        if let nested = part["content"] { return summary(nested) }
        return part.sourceText
    }
}
