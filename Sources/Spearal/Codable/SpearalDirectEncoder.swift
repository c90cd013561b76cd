/// The `Encoder` of the direct-write path: what one `Encodable` value puts into its containers,
/// written to the message by ``SpearalDirectEncodingContext`` once `encode(to:)` returns.
final class SpearalDirectEncoder: Encoder {
    /// What the value asked for, as the value-model encoder would have built it.
    enum Content {
        /// No container requested: an empty bean.
        case empty
        /// A single-value container's value (the last one set).
        case single(SpearalPendingValue)
        /// A keyed container's bean (shared with the super encoders of that container).
        case bean(SpearalPendingBean)
        /// An unkeyed container's collection.
        case list(SpearalPendingList)
    }

    let context: SpearalDirectEncodingContext
    /// The encoder of the enclosing value, whose path this one extends.
    private let parent: SpearalDirectEncoder?
    private let pathElement: SpearalPathElement?
    /// The type being encoded, which names the bean if it asks for a keyed container.
    let type: Any.Type
    /// Unchecked: set and read by one encoding, never during another access to it.
    @exclusivity(unchecked) var content = Content.empty
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(context: SpearalDirectEncodingContext, parent: SpearalDirectEncoder?, at pathElement: SpearalPathElement?,
         type: Any.Type) {
        self.context = context
        self.parent = parent
        self.pathElement = pathElement
        self.type = type
    }

    /// Built on demand: most values never ask for their path.
    var codingPath: [any CodingKey] {
        var path = parent?.codingPath ?? []
        if let pathElement { path.append(pathElement.codingKey) }
        return path
    }

    func container<Key: CodingKey>(keyedBy keyType: Key.Type) -> KeyedEncodingContainer<Key> {
        let beanType = context.beanType(of: type)
        let bean: SpearalPendingBean
        if case .bean(let existing) = content {
            bean = existing
        } else {
            bean = SpearalPendingBean(className: beanType.remoteClass, beanType: beanType)
            content = .bean(bean)
        }
        // A nested keyed container fills a nameless bean of its own: the type's filter does not apply.
        let keptNames = bean.className == beanType.remoteClass ? beanType.keptNames : context.keptNames(of: bean.className)
        let container = SpearalDirectKeyedContainer<Key>(encoder: self, bean: bean, localClass: beanType.localClass,
                                                         keptNames: keptNames)
        return KeyedEncodingContainer(container)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list(let list) = content {
            return SpearalDirectUnkeyedContainer(encoder: self, list: list)
        }
        let list = SpearalPendingList()
        content = .list(list)
        return SpearalDirectUnkeyedContainer(encoder: self, list: list)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SpearalDirectSingleValueContainer(encoder: self)
    }

    /// An encoder for a nested container or super encoder: same type, path extended by `element`.
    func nested(at element: SpearalPathElement?, content: Content = .empty) -> SpearalDirectEncoder {
        let encoder = SpearalDirectEncoder(context: context, parent: self, at: element, type: type)
        encoder.content = content
        return encoder
    }
}
