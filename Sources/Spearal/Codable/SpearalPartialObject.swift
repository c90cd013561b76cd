/// A `Codable` model whose ``SpearalField`` properties make it a partial object, and which can
/// list the properties it currently defines.
///
/// Conform a model with ``SpearalField`` properties to get ``definedPropertyNames``: after
/// ``SpearalDecoder/decode(_:from:)`` it names the properties that arrived (plus the plain,
/// always-defined ones); before ``SpearalEncoder/encode(_:)`` it names those that will be sent
/// (before any ``SpearalPropertyFilter`` applies).
///
/// ```swift
/// struct PersonUpdate: Codable, SpearalPartialObject {
///     var id: Int
///     var name: SpearalField<String?> = .undefined
/// }
/// PersonUpdate(id: 1).definedPropertyNames   // ["id"]
/// ```
public protocol SpearalPartialObject {}

extension SpearalPartialObject {
    /// The Swift names of the stored properties that are defined, in declaration order
    /// (superclass properties last): every property except undefined ``SpearalField``s.
    public var definedPropertyNames: [String] {
        var names: [String] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label else { continue }
                if let field = child.value as? any SpearalUndefinable, field.isUndefined { continue }
                names.append(label)
            }
            mirror = current.superclassMirror
        }
        return names
    }

    /// Whether the stored property `name` (Swift name) is defined.
    /// - Parameter name: a stored property name.
    public func isDefined(_ name: String) -> Bool {
        definedPropertyNames.contains(name)
    }
}
