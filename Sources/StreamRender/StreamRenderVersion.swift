/// The library's version.
public enum StreamRenderVersion: Sendable {
    public static let string = "0.1.0"
}
