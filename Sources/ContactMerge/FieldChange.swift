/// One change a merge made to a card, or a value it did not take, so nothing is lost without a trace.
public struct FieldChange: Sendable, Equatable, Codable {
    /// What happened to the value.
    public enum Action: String, Sendable, Codable {
        /// A new value was added (a phone, an email, a field the card lacked).
        case added
        /// The incoming value replaced the existing one, which is in `previous`.
        case replaced
        /// The incoming value was not taken (the existing one was preferred); it is in `value`.
        case kept
        /// Both texts were kept, joined (NOTE).
        case joined
        /// An existing value gained the incoming value's types.
        case retyped
    }

    /// The vCard property (`EMAIL`, `FN`, `NOTE`, `X-SKYPE`...).
    public var field: String
    /// What happened.
    public var action: Action
    /// The incoming value (or the value that was kept out).
    public var value: String?
    /// The value that was replaced.
    public var previous: String?

    /// Creates a change record.
    public init(_ field: String, _ action: Action, value: String? = nil, previous: String? = nil) {
        self.field = field
        self.action = action
        self.value = value
        self.previous = previous
    }
}
