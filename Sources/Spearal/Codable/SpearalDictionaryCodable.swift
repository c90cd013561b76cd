/// Lets the Codable bridge send dictionaries as Spearal MAPs (any key type) rather than beans.
protocol SpearalDictionaryCodable {
    /// The entries as Spearal values; string and integer keys are sorted so the bytes are stable.
    func spearalEntries(encoder: SpearalValueEncoder) throws -> [SpearalMap.Entry]

    /// Writes the MAP on the direct-write path, its entries in the order of ``spearalEntries(encoder:)``.
    /// - Parameters:
    ///   - context: the encoding under way.
    ///   - parent: the encoder of the value holding the dictionary (`nil` at the top).
    func spearalWrite(to context: SpearalDirectEncodingContext, parent: SpearalDirectEncoder?) throws
}

/// Lets the Codable bridge build dictionaries from Spearal MAPs.
protocol SpearalDictionaryDecodable {
    static func spearalDecode(_ map: SpearalMap, decoder: SpearalValueDecoder) throws -> Self
}

/// The order of map entries: string keys and integer keys are sorted so the bytes are stable;
/// other keys compare as equal. Both encoders sort with this same predicate.
enum SpearalMapKeyOrder {
    static func precedes(_ left: SpearalValue?, _ right: SpearalValue?) -> Bool {
        switch (left, right) {
        case (.string(let a)?, .string(let b)?): return a.utf16.lexicographicallyPrecedes(b.utf16)
        case (.integral(let a)?, .integral(let b)?): return a < b
        default: return false
        }
    }
}

extension Dictionary: SpearalDictionaryCodable where Key: Encodable, Value: Encodable {
    func spearalEntries(encoder: SpearalValueEncoder) throws -> [SpearalMap.Entry] {
        var entries: [SpearalMap.Entry] = []
        entries.reserveCapacity(count)
        for (key, value) in self {
            let codingKey = SpearalIndexKey(stringValue: "\(key)")
            entries.append((try encoder.encodeChild(key, at: codingKey), try encoder.encodeChild(value, at: codingKey)))
        }
        entries.sort { SpearalMapKeyOrder.precedes($0.key, $1.key) }
        return entries
    }

    func spearalWrite(to context: SpearalDirectEncodingContext, parent: SpearalDirectEncoder?) throws {
        let owner = parent ?? SpearalDirectEncoder(context: context, parent: nil, at: nil, type: Self.self)
        var entries: [(key: SpearalPendingValue, value: SpearalPendingValue, order: SpearalValue?)] = []
        entries.reserveCapacity(count)
        for (key, value) in self {
            let element = SpearalPathElement.key(SpearalIndexKey(stringValue: "\(key)"))
            let pendingKey = try context.pending(key, at: element, in: owner)
            let order: SpearalValue?
            switch pendingKey {
            case .string(let string): order = .string(string)
            case .integral(let integer): order = .integral(integer)
            case .encodable: order = try context.sortValue(of: key)
            default: order = nil
            }
            entries.append((pendingKey, try context.pending(value, at: element, in: owner), order))
        }
        entries.sort { SpearalMapKeyOrder.precedes($0.order, $1.order) }
        context.writer.countUnsharedObject()
        context.writer.writeTypeAndCount(SpearalTypeByte.map, entries.count)
        for entry in entries {
            try context.write(entry.key, owner: owner)
            try context.write(entry.value, owner: owner)
        }
    }
}

extension Dictionary: SpearalDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func spearalDecode(_ map: SpearalMap, decoder: SpearalValueDecoder) throws -> Self {
        var result: [Key: Value] = [:]
        result.reserveCapacity(map.entries.count)
        for (index, entry) in map.entries.enumerated() {
            let key = try decoder.decodeChild(Key.self, from: entry.key, at: .index(index))
            result[key] = try decoder.decodeChild(Value.self, from: entry.value, at: .index(index))
        }
        return result
    }
}
