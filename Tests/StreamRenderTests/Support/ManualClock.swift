import Foundation

/// A clock that moves only when told (`advance(by:)`): the synchronous core and the
/// frame clock are tested without sleeping.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    /// Returns once the clock has been advanced to `deadline` (polling; only the
    /// async tests sleep on it).
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// A sink that counts and forgets (measuring without keeping the output).
final class CountingSink: RenderSink {
    private(set) var bytes = 0
    private(set) var writes = 0
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes += bytes.count
        writes += 1
    }
    func writeMessage(_ text: String, kind: RenderMessageKind) {}
}

import StreamRender

/// A Messages stream (SSE) carrying `text` in deltas of `pieces`.
func anthropicStream(_ pieces: [String], stop: Bool = true) -> [UInt8] {
    var s = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"test-model\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
    s += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
    for piece in pieces {
        s += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\(jsonString(piece))}}\n\n"
    }
    s += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
    if stop {
        s += "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\n"
        s += "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
    }
    return Array(s.utf8)
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// A sink another task may read while the renderer writes.
final class LockedSink: RenderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    func write(_ bytes: UnsafeBufferPointer<UInt8>) { lock.withLock { self.bytes.append(contentsOf: bytes) } }
    func writeMessage(_ text: String, kind: RenderMessageKind) {}
}
