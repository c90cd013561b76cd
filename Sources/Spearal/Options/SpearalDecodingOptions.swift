/// Limits applied while decoding untrusted bytes.
public struct SpearalDecodingOptions: Hashable, Sendable {
    /// The deepest nesting of collections, maps and beans accepted (default 128).
    ///
    /// Deeper input throws ``SpearalError/depthLimitExceeded(limit:offset:)`` instead of
    /// exhausting the stack.
    public var maxDepth: Int
    /// Whether bytes after the top-level value are an error (default `true`).
    public var rejectsTrailingBytes: Bool

    /// Creates decoding options.
    /// - Parameters:
    ///   - maxDepth: the deepest accepted nesting.
    ///   - rejectsTrailingBytes: whether extra bytes after the value throw.
    public init(maxDepth: Int = 128, rejectsTrailingBytes: Bool = true) {
        self.maxDepth = maxDepth
        self.rejectsTrailingBytes = rejectsTrailingBytes
    }
}
