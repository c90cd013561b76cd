/// A byte array with identity (format type BYTE_ARRAY).
///
/// Putting the same instance twice into a graph sends its bytes once and a reference the
/// second time.
public final class SpearalBytes {
    /// The bytes.
    public var bytes: [UInt8]

    /// Creates a byte array holding `bytes`.
    /// - Parameter bytes: the content.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
