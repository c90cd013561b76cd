/// The direction of a sorted list: `order=asc` or `order=desc`.
public enum ListOrder: String, Sendable, CaseIterable {
    /// Smallest, earliest or first in the alphabet first.
    case ascending = "asc"
    /// Largest, latest or last in the alphabet first.
    case descending = "desc"
}
