/// One node of a parsed HTML body: an element with its attributes and children, or text.
///
/// ``HTMLParser`` builds this tree from libxml2's DOM and frees the DOM at once, so the rest
/// of the renderer works on plain Swift values (no C pointers outlive the parse).
public indirect enum HTMLNode: Sendable, Equatable {
    /// An element: its lower-case tag name, its attributes (names lower-cased) and children.
    case element(name: String, attributes: [String: String], children: [HTMLNode])
    /// A run of character data, entities already decoded.
    case text(String)

    /// The text of this node and all its descendants, in document order.
    public var textContent: String {
        switch self {
        case .text(let text):
            return text
        case .element(_, _, let children):
            return children.map(\.textContent).joined()
        }
    }

    /// The element's tag name, or `nil` for text.
    public var elementName: String? {
        if case .element(let name, _, _) = self { return name }
        return nil
    }

    /// The elements among this node's descendants (itself included) named `name`, in
    /// document order.
    ///
    /// - Parameter name: a lower-case tag name.
    public func descendants(named name: String) -> [HTMLNode] {
        guard case .element(let own, _, let children) = self else { return [] }
        let below = children.flatMap { $0.descendants(named: name) }
        return own == name ? [self] + below : below
    }
}
