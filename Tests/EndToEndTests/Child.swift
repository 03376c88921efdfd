import Foundation

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
