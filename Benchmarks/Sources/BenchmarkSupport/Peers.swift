import Foundation

/// Issue 24: stream-render beside mdflow on mdflow's own benchmark shape (a markdown
/// document repeated to a size, read from a file on standard input, output discarded,
/// 80 columns), measured as whole processes.
public enum Peers {
    /// The repository's root (this file is Benchmarks/Sources/BenchmarkSupport/Peers.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// mdflow's figures from `Benchmarks/compare/files` (RESULTS.md, 2026-11-25), CPU
    /// seconds for its demo at 1 and 10 MiB: the comparison when mdflow is absent.
    public static let recordedMdflowSeconds: [Int: Double] = [1: 0.047, 10: 0.45]

    /// mdflow from `MDFLOW` or where `Benchmarks/compare/files` builds it; nil if neither.
    public static var mdflow: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MDFLOW"],
                                     root.appendingPathComponent("Benchmarks/compare/.work/mdflow-bin").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// mdflow's `assets/demo.md` repeated to `mebibytes` MiB (whole copies, then the
    /// document cut at its last line end before the remainder, as mdflow's benchmark
    /// does), in a temporary file.
    public static func demoWorkload(mebibytes: Int, in directory: URL) -> String {
        let demo = FileManager.default.contents(atPath: root.appendingPathComponent("Benchmarks/compare/inputs/mdflow-demo.md").path)!
        let target = mebibytes << 20
        var data = Data(capacity: target)
        while data.count + demo.count <= target { data.append(demo) }
        let rest = target - data.count
        if rest > 0, let cut = demo.prefix(rest).lastIndex(of: 0x0A) { data.append(demo.prefix(cut + 1)) }
        let path = directory.appendingPathComponent("demo-\(mebibytes)MiB.md").path
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
