/// An object with named properties and identity (format type BEAN).
///
/// A bean carries only the properties that are *defined*: a property missing from
/// ``properties`` is undefined, which is different from a property whose value is
/// ``SpearalValue/null``. A bean that lists fewer properties than its class has is a
/// *partial object*; the receiver updates only the listed properties.
///
/// The same instance reachable twice (a person listed twice, `worstEnemy` cycles) is sent
/// once and referenced afterwards, and decodes back into one shared instance.
public final class SpearalBean {
    /// One defined property.
    public typealias Property = (name: String, value: SpearalValue)

    /// The remote class name as sent on the wire, e.g. `org.example.Person`.
    ///
    /// spearal-java sends several names separated by commas for proxies implementing
    /// several interfaces; ``classNames`` splits them.
    public var className: String
    /// The defined properties in wire order.
    public var properties: [Property]

    /// Creates a bean.
    /// - Parameters:
    ///   - className: the remote class name.
    ///   - properties: the defined properties, in the order they are sent.
    public init(className: String, properties: [Property] = []) {
        self.className = className
        self.properties = properties
    }

    /// The individual class names of ``className`` (split at commas).
    public var classNames: [String] {
        className.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The names of the defined properties, in wire order.
    public var definedPropertyNames: [String] {
        properties.map(\.name)
    }

    /// Whether the property `name` is defined (possibly as null).
    /// - Parameter name: a property name.
    public func isDefined(_ name: String) -> Bool {
        properties.contains { $0.name == name }
    }

    /// The value of a defined property, or `nil` when it is undefined.
    ///
    /// Setting a value defines the property (appended at the end if new); setting `nil`
    /// makes it undefined again.
    /// - Parameter name: a property name.
    public subscript(name: String) -> SpearalValue? {
        get { properties.first { $0.name == name }?.value }
        set {
            let index = properties.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): properties[index].value = value
            case (let index?, nil): properties.remove(at: index)
            case (nil, let value?): properties.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The class description sent on the wire: `ClassName#prop,prop`.
    var classDescription: String {
        className + "#" + properties.map(\.name).joined(separator: ",")
    }
}
