/// An ordered collection with identity (format type COLLECTION).
///
/// A list may contain itself or be listed in several places; both are sent as references.
public final class SpearalList {
    /// The elements, in order.
    public var elements: [SpearalValue]

    /// Creates a list of `elements`.
    /// - Parameter elements: the items, in order.
    public init(_ elements: [SpearalValue] = []) {
        self.elements = elements
    }
}
