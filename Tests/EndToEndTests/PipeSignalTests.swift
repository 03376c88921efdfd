#if os(Linux)
import Foundation
import Glibc
import Testing

/// Signals when the output is a pipe.
@Suite struct PipeSignalTests: EndToEnd {
    /// SIGHUP into a pipe: what arrived is written (the held-back end of the line too)
    /// and the exit status is 129.
    @Test func sigHupMidStreamWritesWhatArrivedAndExits129() async throws {
        let binary = CommandLineTests.binary.path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("sr-hup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let script = "(printf 'a line still arriving when the hang-up comes, cut mid-wo'; sleep 2) | '\(binary)' --format text --markdown off > '\(output)' & pid=$!; n=0; while [ ! -s '\(output)' ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; kill -HUP $pid; wait $pid; echo \"exit=$?\" >> '\(output)'"
        _ = try await Child.script(script)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(text == "a line still arriving when the hang-up comes, cut mid-wo\nexit=129\n", "\(text.debugDescription)")
    }

    /// Standard input left non-blocking by a parent, empty for a second: the command
    /// waits for it with poll (reading it directly, and whole for `--replay`), not in
    /// a spin, and then reads it all.
    @Test(arguments: [[], ["--replay"]])
    func aNonBlockingEmptyInputIsWaitedOnWithoutSpinning(_ extra: [String]) async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        #expect(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) == 0)  // shared with the child
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // the child must not hold the write end
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "cpu %U %S", CommandLineTests.binary.path, "--format", "text", "--markdown", "off"] + extra
        let reading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        let out = Pipe(), err = Pipe()
        process.standardInput = reading
        process.standardOutput = out
        process.standardError = err
        let child = try Child(process)
        try reading.close()
        let stdoutReader = PipeReader(out), stderrReader = PipeReader(err)
        await pause(1)
        _ = "late text\n".withCString { write(fds[1], $0, strlen($0)) }
        close(fds[1])
        let stdout = await stdoutReader.text()
        let stderr = await stderrReader.text()
        #expect(await child.exit() == 0, "\(stderr)")
        #expect(stdout.contains("late text"), "\(stdout.debugDescription)")
        let fields = stderr.split(separator: "\n").last { $0.hasPrefix("cpu ") }?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        #expect(fields.count == 2, "\(stderr)")
        // A spin would burn the whole second waiting; start-up takes a small part of it.
        #expect(fields.reduce(0, +) < 0.5, "CPU time \(fields) s while the input was empty for 1 s")
    }
}
#endif
