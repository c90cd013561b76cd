import Foundation

/// A value collected by a container of the direct-write encoder, written once its bean or
/// collection is complete.
///
/// A bean's properties arrive in declaration order but are sent sorted, after the class
/// description; a collection's count comes before its elements. So containers only collect,
/// and nested `Encodable`s are encoded when written: their strings and objects then take their
/// table indexes in wire order, exactly as when the value model is written.
///
/// The common leaves have cases of their own so that the enum stays small (cheap to copy);
/// rarer values are boxed.
enum SpearalPendingValue {
    case null
    case bool(Bool)
    case integral(Int)
    case floating(Double)
    /// A string; it enters the string table when written.
    case string(String)
    /// A finite date (checked when collected, where the error belongs), written as DATE_TIME.
    case date(Date)
    /// Any other scalar (a big integral, an enum constant...).
    indirect case other(SpearalValue)
    /// A nested value, encoded when written; `at` extends the coding path (`nil`: same path).
    indirect case encodable(any Encodable, at: SpearalPathElement?)
    /// The bean of a nested keyed container (or of an unkeyed container's super encoder).
    indirect case bean(SpearalPendingBean, at: SpearalPathElement?)
    /// The collection of a nested unkeyed container.
    indirect case list(SpearalPendingList, at: SpearalPathElement?)

    /// An unsigned integer: INTEGRAL when it fits a signed 64-bit integer, else BIG_INTEGRAL.
    static func unsigned(_ value: UInt64) -> SpearalPendingValue {
        value <= UInt64(Int.max) ? .integral(Int(value)) : .other(.bigIntegral(String(value)))
    }
}

/// The properties collected for one bean, in the order the keyed container received them.
final class SpearalPendingBean {
    typealias Property = (name: String, value: SpearalPendingValue)

    let className: String
    /// The type whose own bean this is, which caches the wire order of its properties; `nil`
    /// for the nameless beans of nested keyed containers.
    let beanType: SpearalDirectEncodingContext.BeanType?
    // Unchecked: only touched by one encoding, never while another access to it is under way
    // (dynamic exclusivity checks cost more than appending).
    @exclusivity(unchecked) private(set) var properties: [Property] = []

    init(className: String, beanType: SpearalDirectEncodingContext.BeanType?) {
        self.className = className
        self.beanType = beanType
        // Sized like the last bean of the type: one allocation instead of repeated growth.
        if let expected = beanType?.shapes.last?.names.count {
            properties.reserveCapacity(expected)
        }
    }

    func append(_ value: SpearalPendingValue, as name: String) {
        properties.append((name, value))
    }

    /// Keeps one property per name, at its first position with its last value, as encoding the
    /// same key twice does in the value model.
    func removeDuplicateNames() {
        var positions: [String: Int] = [:]
        var unique: [Property] = []
        unique.reserveCapacity(properties.count)
        for property in properties {
            if let position = positions[property.name] {
                unique[position].value = property.value
            } else {
                positions[property.name] = unique.count
                unique.append(property)
            }
        }
        properties = unique
    }
}

/// The elements collected for one collection.
final class SpearalPendingList {
    @exclusivity(unchecked) private(set) var elements: [SpearalPendingValue] = []

    func append(_ value: SpearalPendingValue) {
        elements.append(value)
    }
}
