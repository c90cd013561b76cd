/// A map with identity (format type MAP). Entries keep their order; keys may be any value.
public final class SpearalMap {
    /// One key/value pair.
    public typealias Entry = (key: SpearalValue, value: SpearalValue)

    /// The entries, in order.
    public var entries: [Entry]

    /// Creates a map of `entries`.
    /// - Parameter entries: the key/value pairs, in order.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The value of the first entry whose key is the string `key`.
    /// - Parameter key: a string key.
    public subscript(key: String) -> SpearalValue? {
        for entry in entries {
            if case .string(let candidate) = entry.key, candidate == key { return entry.value }
        }
        return nil
    }
}
