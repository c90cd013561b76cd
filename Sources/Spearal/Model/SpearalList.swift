/// An ordered collection with identity (format type COLLECTION).
///
/// A list may contain itself or be listed in several places; both are sent as references.
public final class SpearalList {
    /// The elements, in order.
    public var elements: [SpearalValue]
    /// Set by the `Codable` bridge on lists it made for arrays, which it never places twice in
    /// a graph: the writer counts them in the object table without remembering them.
    var isUnshared = false

    /// Creates a list of `elements`.
    /// - Parameter elements: the items, in order.
    public init(_ elements: [SpearalValue] = []) {
        self.elements = elements
    }
}
