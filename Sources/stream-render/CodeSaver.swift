#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamRender

/// `--save-code DIR`: each finished code block of the answer into its own file,
/// `1.swift`, `2.py`, `3.txt`..., by the numbers their labels show.
final class CodeSaver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    private(set) var saved: [(path: String, lines: Int)] = []
    private(set) var failed = false

    /// Creates `directory` (and its parents) if needed.
    init(directory: String) throws {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var path = ""
        for part in self.directory.split(separator: "/", omittingEmptySubsequences: false) {
            path += (path.isEmpty && part.isEmpty) ? "/" : (path.isEmpty || path == "/" ? "" : "/") + part
            if part.isEmpty { continue }
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create \(path) for --save-code: \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(self.directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "--save-code \(directory) is not a directory")
        }
    }

    /// Writes `block` to the next file (an error on standard error if it cannot).
    func save(_ block: CodeBlock) {
        let path = "\(directory)/\(block.number).\(block.fileExtension)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        var ok = fd >= 0
        if ok {
            var code = block.code
            ok = code.withUTF8 { FileDescriptorSink.writeAll(fd, $0) }
            ok = close(fd) == 0 && ok
        }
        if ok {
            saved.append((path, block.code.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }))
        } else {
            failed = true
            StreamRenderCommand.error("cannot write \(path) for --save-code: \(String(cString: strerror(errno)))")
        }
    }

    /// One line on standard error per file written.
    func report() {
        var text = ""
        for (path, lines) in saved { text += "stream-render: saved \(path) (\(lines) line\(lines == 1 ? "" : "s"))\n" }
        text.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }
}
