import Foundation
import StreamRender
@_exported import TestSupport

// What the end-to-end suites share, in one place: the built binary and how to run it,
// fixtures, tmux captures, and `Child` (a process awaited without a thread). Each suite
// conforms to `EndToEnd`, so `Self.run(...)` and `Self.capture(...)` work in every one.

/// A suite that runs the built programs.
protocol EndToEnd {}

/// A finished run of a program: its exit status and output.
struct Run {
    var status: Int32
    var stdout: Data
    var stderr: String
}

/// Whether tmux can be run here; in CI (.ci/run installs it) the tests always run.
let tmuxIsAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    || ProcessInfo.processInfo.environment["CI"] != nil

extension EndToEnd {
    static var resources: URL { Fixtures.resources }

    /// How many times a memory bound is raised for a sanitised binary: a
    /// sanitizer's shadow memory and allocator add to the resident size what the
    /// program did not allocate. `Scripts/sanitizers/run` sets STREAMRENDER_SANITIZER.
    static var memoryFactor: Int {
        switch ProcessInfo.processInfo.environment["STREAMRENDER_SANITIZER"] {
        case "thread": 8
        case "address": 4
        default: 1
        }
    }

    static var binary: URL {
        // The test bundle sits in the build folder next to the products.
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        let candidates = [dir, dir.deletingLastPathComponent()]
        for candidate in candidates {
            let url = candidate.appendingPathComponent("stream-render")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return dir.appendingPathComponent("stream-render")
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        // A COLUMNS or STREAM_RENDER_OPTS exported by the developer's shell would change
        // the defaults under test: only a test's own environment sets them.
        var inherited = ProcessInfo.processInfo.environment
        inherited["COLUMNS"] = nil
        inherited["STREAM_RENDER_OPTS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
    }

    static func fixture(_ path: String) -> String { Fixtures.path(path) }
    static func data(_ path: String) -> Data { Data(Fixtures.data(path)) }

    /// Runs `command` in a detached tmux pane of `width` x `height`; returns the pane's
    /// scrollback and screen once the command is done, trailing blank rows removed.
    /// One shell script drives tmux from start to capture.
    /// `joinWrapped`: rows the terminal wrapped come back joined (`capture-pane -J`, as
    /// a selection copies them).
    static func capture(_ command: String, width: Int, height: Int, escapes: Bool = false,
                        during: (String) -> String = { _ in "" },
                        after: (String) -> String = { _ in "" }, joinWrapped: Bool = false) async throws -> [String] {
        rows(try await Child.script(driver(command, width: width, height: height, escapes: escapes, during: during, after: after,
                                           joinWrapped: joinWrapped)))
    }

    /// ``capture(_:width:height:escapes:during:after:)`` for a synchronous caller (a
    /// static value computed once): it blocks its thread while tmux runs.
    static func captureBlocking(_ command: String, width: Int, height: Int, escapes: Bool = false,
                                during: (String) -> String = { _ in "" },
                                after: (String) -> String = { _ in "" }) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", driver(command, width: width, height: height, escapes: escapes, during: during, after: after)]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return rows(data)
    }

    /// The shell script that runs `command` in a tmux pane and prints the capture.
    static func driver(_ command: String, width: Int, height: Int, escapes: Bool,
                       during: (String) -> String, after: (String) -> String, joinWrapped: Bool = false) -> String {
        let socket = "streamrender-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let pane = "\(command); tmux -L \(socket) wait-for -S done; sleep 60"
        return """
            tmux -L \(socket) -f /dev/null new-session -d -x \(width) -y \(height) -s t sh -c \(quote(pane)) </dev/null >/dev/null 2>&1
            \(during("tmux -L \(socket)"))
            timeout 120 tmux -L \(socket) wait-for done
            \(after("tmux -L \(socket)"))
            tmux -L \(socket) capture-pane -p \(escapes ? "-e " : "")\(joinWrapped ? "-J " : "")-S - -t t
            tmux -L \(socket) kill-server >/dev/null 2>&1
            """
    }

    /// The captured text as rows, trailing blank rows removed.
    static func rows(_ data: Data) -> [String] {
        var rows = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// tmux 3.3 stores a limited number of bytes per cell, so a long ZWJ sequence
    /// (👩‍👩‍👧‍👦, 25 bytes) reads back without its last scalars, though it is measured
    /// right (the text after it is in place): rows are compared without emoji scalars.
    static func normalized(_ row: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in row.unicodeScalars {
            let v = scalar.value
            let emojiPart = v >= 0x1F000 || (0x2600...0x27BF).contains(v) || v == 0x200D || v == 0xFE0F || v == 0xFE0E
                || v == 0x20E3
            if !emojiPart { out.append(scalar) }
        }
        return String(out)
    }
}

/// A started process whose exit is awaited without holding a thread.
///
/// The test runner has one thread per core, and end-to-end tests mostly wait (for a
/// pacer, a timeout, a signal, tmux): a test blocked in `waitUntilExit`, a pipe read or a
/// sleep kept one of the two cores from the CPU-bound suites, which made `swift test`
/// about a minute longer than its CPU time allows.
struct Child: Sendable {
    let process: Process
    private let exited: AsyncStream<Void>

    /// Starts `process` (its arguments and descriptors already set).
    init(_ process: Process) throws {
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        self.process = process
        self.exited = exited
        do { try process.run() } catch { exit.finish(); throw error }
    }

    /// Waits for the exit and returns the status.
    @discardableResult
    func exit() async -> Int32 {
        for await _ in exited {}
        return process.terminationStatus
    }

    /// Runs a shell script with standard input from /dev/null; returns what it wrote
    /// on standard output once it has exited.
    static func script(_ script: String, shell: String = "/bin/sh") async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", script]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        let child = try Child(process)
        let data = await PipeReader(out).data()
        await child.exit()
        return data
    }
}

/// A pipe read to its end on a thread of its own (not the test runner's).
struct PipeReader: Sendable {
    private let result: AsyncStream<Data>

    init(_ pipe: Pipe) {
        let (result, give) = AsyncStream<Data>.makeStream()
        self.result = result
        let handle = pipe.fileHandleForReading
        Thread {
            give.yield(handle.readDataToEndOfFile())
            give.finish()
        }.start()
    }

    /// Everything the pipe carried, once its writers have closed it.
    func data() async -> Data {
        for await data in result { return data }
        return Data()
    }

    func text() async -> String { String(decoding: await data(), as: UTF8.self) }
}

/// Sleeps without holding a thread.
func pause(_ seconds: Double) async {
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}
