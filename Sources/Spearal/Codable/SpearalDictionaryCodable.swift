/// Lets the Codable bridge send dictionaries as Spearal MAPs (any key type) rather than beans.
protocol SpearalDictionaryCodable {
    /// The entries as Spearal values; string and integer keys are sorted so the bytes are stable.
    func spearalEntries(encoder: SpearalValueEncoder) throws -> [SpearalMap.Entry]
}

/// Lets the Codable bridge build dictionaries from Spearal MAPs.
protocol SpearalDictionaryDecodable {
    static func spearalDecode(_ map: SpearalMap, decoder: SpearalValueDecoder) throws -> Self
}

extension Dictionary: SpearalDictionaryCodable where Key: Encodable, Value: Encodable {
    func spearalEntries(encoder: SpearalValueEncoder) throws -> [SpearalMap.Entry] {
        var entries: [SpearalMap.Entry] = []
        entries.reserveCapacity(count)
        for (key, value) in self {
            let codingKey = SpearalIndexKey(stringValue: "\(key)")
            entries.append((try encoder.encodeChild(key, at: codingKey), try encoder.encodeChild(value, at: codingKey)))
        }
        entries.sort { Self.precedes($0.key, $1.key) }
        return entries
    }

    /// Orders string keys and integer keys; other keys keep their relative order.
    private static func precedes(_ left: SpearalValue, _ right: SpearalValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)): return a.utf16.lexicographicallyPrecedes(b.utf16)
        case (.integral(let a), .integral(let b)): return a < b
        default: return false
        }
    }
}

extension Dictionary: SpearalDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func spearalDecode(_ map: SpearalMap, decoder: SpearalValueDecoder) throws -> Self {
        var result: [Key: Value] = [:]
        result.reserveCapacity(map.entries.count)
        for (index, entry) in map.entries.enumerated() {
            let codingKey = SpearalIndexKey(intValue: index)
            let key = try decoder.decodeChild(Key.self, from: entry.key, at: codingKey)
            result[key] = try decoder.decodeChild(Value.self, from: entry.value, at: codingKey)
        }
        return result
    }
}
