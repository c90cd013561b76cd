/// A `String`-backed Swift enum sent as a Spearal ENUM (class name + constant name) instead of a
/// plain STRING, as a Java `enum` is.
///
/// The class name is ``SpearalClassNamed/spearalClassName`` when the type also conforms to
/// ``SpearalClassNamed``, else the aliased Swift type name. Decoding accepts an ENUM or a STRING.
public protocol SpearalEnumeration: RawRepresentable, Codable where RawValue == String {}
