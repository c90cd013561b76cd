/// Lets the direct-write encoder send arrays as COLLECTIONs element by element, which is what
/// `Array.encode(to:)` does through an unkeyed container, minus collecting every element first.
protocol SpearalArrayEncodable {
    /// Writes the collection; `encoder` is the array's own encoder (the elements' parent).
    func spearalWrite(to context: SpearalDirectEncodingContext, encoder: SpearalDirectEncoder) throws
}

extension Array: SpearalArrayEncodable where Element: Encodable {
    func spearalWrite(to context: SpearalDirectEncodingContext, encoder: SpearalDirectEncoder) throws {
        context.writer.countUnsharedObject()
        context.writer.writeTypeAndCount(SpearalTypeByte.collection, count)
        let kind = context.kind(of: Element.self)
        // Indexes rather than enumerated(): its generic iterator costs a metadata lookup per element.
        for index in indices {
            try context.write(self[index], kind: kind, parent: encoder, at: .index(index))
        }
    }
}

/// Lets the decoder build arrays straight from a COLLECTION's elements, as `Array.init(from:)`
/// does through an unkeyed container, with the capacity reserved up front.
protocol SpearalArrayDecodable {
    /// The array of `list`'s elements; `decoder` is the array's own decoder (the elements' parent).
    static func spearalDecode(_ list: SpearalList, decoder: SpearalValueDecoder) throws -> Self
}

extension Array: SpearalArrayDecodable where Element: Decodable {
    static func spearalDecode(_ list: SpearalList, decoder: SpearalValueDecoder) throws -> Self {
        let elements = list.elements
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for index in elements.indices {
            result.append(try decoder.decodeChild(Element.self, from: elements[index], at: .index(index)))
        }
        return result
    }
}
