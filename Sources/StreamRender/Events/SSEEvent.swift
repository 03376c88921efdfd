/// One dispatched server-sent event.
public struct SSEEvent: Sendable, Equatable, CustomStringConvertible {
    /// The event type (`event:` field), "message" when none was given.
    public var type: String
    /// The data lines joined with LF, as valid UTF-8 bytes (invalid input was
    /// replaced with U+FFFD).
    public var data: [UInt8]
    /// The last event ID in force when this event was dispatched, if any.
    public var lastEventID: String?
    /// 1 for the first dispatched event of the stream, then 2, 3...
    public var number: Int
    /// Offset in the input stream of the first byte of the event's first line.
    public var byteOffset: Int

    public init(type: String = "message", data: [UInt8], lastEventID: String? = nil, number: Int = 0, byteOffset: Int = 0) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.number = number
        self.byteOffset = byteOffset
    }

    /// The data as a string.
    public var dataString: String { String(decoding: data, as: UTF8.self) }

    public var description: String { "#\(number)@\(byteOffset) \(type): \(dataString)" }
}

/// A problem found in the input; decoding goes on after it unless it says otherwise.
public struct StreamDiagnostic: Sendable, Equatable, CustomStringConvertible, Error {
    public enum Kind: String, Sendable, Equatable {
        /// An event's data could not be parsed (malformed JSON, wrong shape).
        case malformedEvent = "malformed event"
        /// A line or an event exceeded the configured size limit and was dropped.
        case eventTooLarge = "event too large"
        /// The stream ended inside an event (no blank line after it); the event was discarded.
        case truncatedEvent = "truncated event"
        /// The input does not look like what the format expects.
        case unrecognisedInput = "unrecognised input"
        /// An event or field this version does not know carries text (a `….delta`
        /// event, a string in an unknown field): it may be part of the answer and is
        /// not shown.
        case unhandledContent = "content not shown"
    }

    public var kind: Kind
    public var message: String
    /// The event number (1-based) the problem is in, if it is in one.
    public var eventNumber: Int?
    /// The byte offset in the input where the problem starts.
    public var byteOffset: Int

    public init(kind: Kind, message: String, eventNumber: Int? = nil, byteOffset: Int) {
        self.kind = kind
        self.message = message
        self.eventNumber = eventNumber
        self.byteOffset = byteOffset
    }

    public var description: String {
        var place = "byte \(byteOffset)"
        if let eventNumber { place = "event \(eventNumber), " + place }
        return "\(kind.rawValue) (\(place)): \(message)"
    }
}
