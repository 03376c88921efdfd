/// The library's version.
public enum StreamRenderVersion {
    public static let string = "0.1.0"
}
