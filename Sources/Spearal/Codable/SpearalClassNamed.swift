/// A `Codable` type that gives its remote (wire) class name itself.
///
/// Without this conformance the ``SpearalEncoder`` and ``SpearalDecoder`` use the Swift type
/// name passed through their ``SpearalAliasStrategy``.
///
/// ```swift
/// struct Person: Codable, SpearalClassNamed {
///     static let spearalClassName = "org.spearal.samples.springangular.data.Person"
///     var id: Int
///     var name: String?
/// }
/// ```
public protocol SpearalClassNamed {
    /// The class name sent on the wire for beans (and enum constants) of this type.
    static var spearalClassName: String { get }
}
