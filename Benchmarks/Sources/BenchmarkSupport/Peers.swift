import Foundation

/// Issue 24: stream-render beside mdflow on mdflow's own benchmark shape (a markdown
/// document repeated to a size, read from a file on standard input, output discarded,
/// 80 columns), measured as whole processes.
public enum Peers {
    /// The repository's root (this file is Benchmarks/Sources/BenchmarkSupport/Peers.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The documents of the comparison: mdflow's `assets/demo.md`, and LLM-style answers
    /// with code, tables and CJK (the repository's answer fixtures joined, as
    /// `Benchmarks/compare/files` joins them).
    public enum Document: String, CaseIterable, Sendable {
        case demo = "demo.md"
        case answers

        /// The document's bytes, once.
        public var bytes: Data {
            switch self {
            case .demo:
                return FileManager.default.contents(atPath: root.appendingPathComponent("Benchmarks/compare/inputs/mdflow-demo.md").path)!
            case .answers:
                let names = ["coding-answer.md", "multilingual.md", "python-dedupe.md", "sqlite-wal.md", "git-undo.md"]
                let files = names.map { FileManager.default.contents(atPath: root.appendingPathComponent(
                    "Tests/StreamRenderTests/Resources/answers/\($0)").path)! }
                return files.dropFirst().reduce(into: files[0]) { $0.append(Data("\n\n".utf8)); $0.append($1) }
            }
        }
    }

    /// mdflow's figures, CPU seconds at 1 and 10 MiB: the comparison when mdflow is
    /// absent. The demo's from `Benchmarks/compare/files` (RESULTS.md, 2026-11-25); the
    /// answers' scaled from them by mdflow's answers / demo ratio measured side by side
    /// on 2026-11-28 (0.53 at 1 MiB, 0.52 at 10 MiB: mdflow skips code blocks' colours).
    public static let recordedMdflowSeconds: [Document: [Int: Double]] = [
        .demo: [1: 0.047, 10: 0.45],
        .answers: [1: 0.025, 10: 0.235],
    ]

    /// mdflow from `MDFLOW` or where `Benchmarks/compare/files` builds it; nil if neither.
    public static var mdflow: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MDFLOW"],
                                     root.appendingPathComponent("Benchmarks/compare/.work/mdflow-bin").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `document` repeated to `mebibytes` MiB (whole copies, then the document cut at
    /// its last line end before the remainder, as mdflow's benchmark does), in a
    /// temporary file.
    public static func workload(_ document: Document, mebibytes: Int, in directory: URL) -> String {
        let source = document.bytes
        let target = mebibytes << 20
        var data = Data(capacity: target)
        while data.count + source.count <= target { data.append(source) }
        let rest = target - data.count
        if rest > 0, let cut = source.prefix(rest).lastIndex(of: 0x0A) { data.append(source.prefix(cut + 1)) }
        let path = directory.appendingPathComponent("\(document.rawValue)-\(mebibytes)MiB.md").path
        precondition(FileManager.default.createFile(atPath: path, contents: data))
        return path
    }

    /// CPU seconds (user + system) and peak RSS (KiB) of `argv` run with standard input
    /// from `input` and output to /dev/null, COLUMNS=80, from the kernel's accounting
    /// of that one child (`wait4`).
    ///
    /// The peak RSS is wait4's, which counts the spawning process's own peak (the child
    /// shares its memory until exec): see ``selfReportedPeakKB(_:input:)`` for ours.
    public static func usage(_ argv: [String], input: String, errors: String = "/dev/null") -> (cpu: Double, peakKB: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        environment["LINES"] = "24"
        environment["TERM"] = "xterm-256color"
        environment["NO_COLOR"] = nil
        environment["STREAM_RENDER_OPTS"] = nil
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        precondition(spawned == 0, "cannot run \(argv[0])")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return (cpu, Int(usage.ru_maxrss))
    }

    /// stream-render's peak RSS as it reports it (`--stats --verbose`: its own VmHWM).
    public static func selfReportedPeakKB(_ argv: [String], input: String) -> Int {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("peers-stats-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        _ = usage(argv + ["--stats", "--verbose"], input: input, errors: errors)
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.contains("peak memory: ") }
        return line.flatMap { Int($0.split(separator: " ").dropLast().last ?? "") } ?? 0
    }

    /// The median CPU seconds of `runs` runs, and the largest peak RSS.
    public static func median(_ runs: Int, _ argv: [String], input: String) -> (cpu: Double, peakKB: Int) {
        let samples = (0..<runs).map { _ in usage(argv, input: input) }
        let sorted = samples.map(\.cpu).sorted()
        return (sorted[sorted.count / 2], samples.map(\.peakKB).max()!)
    }
}
