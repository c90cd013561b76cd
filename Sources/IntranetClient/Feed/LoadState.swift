/// The state of something a screen loads: nothing yet, loading, loaded, or failed with a
/// message for people. While loading or after a failure, the last loaded value stays
/// available so a screen can keep showing it.
public enum LoadState<Value: Sendable>: Sendable {
    /// Nothing asked for yet.
    case idle
    /// A request is under way; `previous` is what was shown before.
    case loading(previous: Value?)
    /// The value arrived.
    case loaded(Value)
    /// The request failed; `message` is readable, `previous` is what was shown before.
    case failed(message: String, previous: Value?)

    /// The value to show: the loaded one, or the previous one while loading or after a
    /// failure.
    public var value: Value? {
        switch self {
        case .idle: nil
        case .loading(let previous): previous
        case .loaded(let value): value
        case .failed(_, let previous): previous
        }
    }

    /// Whether the value arrived and is current (not loading again, not failed).
    public var isLoaded: Bool {
        if case .loaded = self { return true }
        return false
    }

    /// Whether a request is under way.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The failure message, or `nil` when the last request did not fail.
    public var errorMessage: String? {
        if case .failed(let message, _) = self { return message }
        return nil
    }
}

extension LoadState: Equatable where Value: Equatable {}
