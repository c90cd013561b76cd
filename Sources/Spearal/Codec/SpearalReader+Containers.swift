extension SpearalReader {
    /// Throws when one more level of nesting would pass the configured limit.
    private func checkDepth(_ depth: Int, offset: Int, limit: Int) throws(SpearalError) {
        guard depth < limit else { throw .depthLimitExceeded(limit: limit, offset: offset) }
    }

    mutating func readByteArray(_ type: UInt8) throws(SpearalError) -> SpearalValue {
        if type & SpearalTypeByte.objectReference != 0 { return try readObjectReference(type) }
        let count = try readCount(type)
        let array = SpearalBytes(Array(try readBytes(count)))
        let value = SpearalValue.byteArray(array)
        register(value)
        return value
    }

    mutating func readCollection(_ type: UInt8, depth: Int, offset: Int) throws(SpearalError) -> SpearalValue {
        if type & SpearalTypeByte.objectReference != 0 { return try readObjectReference(type) }
        try checkDepth(depth, offset: offset, limit: maxDepth)
        let countOffset = position
        let count = try readCount(type)
        // Every element takes at least one byte: a larger count cannot be honest.
        guard count <= remaining else { throw .lengthExceedsInput(length: count, offset: countOffset) }
        let list = SpearalList()
        list.elements.reserveCapacity(count)
        let value = SpearalValue.collection(list)
        register(value)
        for _ in 0..<count {
            list.elements.append(try readValue(depth: depth + 1))
        }
        return value
    }

    mutating func readMap(_ type: UInt8, depth: Int, offset: Int) throws(SpearalError) -> SpearalValue {
        if type & SpearalTypeByte.objectReference != 0 { return try readObjectReference(type) }
        try checkDepth(depth, offset: offset, limit: maxDepth)
        let countOffset = position
        let count = try readCount(type)
        guard count <= remaining / 2 else { throw .lengthExceedsInput(length: count, offset: countOffset) }
        let map = SpearalMap()
        map.entries.reserveCapacity(count)
        let value = SpearalValue.map(map)
        register(value)
        for _ in 0..<count {
            let key = try readValue(depth: depth + 1)
            map.entries.append((key, try readValue(depth: depth + 1)))
        }
        return value
    }

    mutating func readEnum(_ type: UInt8) throws(SpearalError) -> SpearalEnumConstant {
        let className = try readStringLike(type).string
        let offset = position
        let nameType = try readByte()
        guard nameType & 0xF0 == SpearalTypeByte.string else {
            throw .invalidEnumConstant(offset: offset)
        }
        return SpearalEnumConstant(className: className, name: try readStringLike(nameType).string)
    }

    mutating func readBean(_ type: UInt8, depth: Int, offset: Int) throws(SpearalError) -> SpearalValue {
        if type & SpearalTypeByte.objectReference != 0 { return try readObjectReference(type) }
        try checkDepth(depth, offset: offset, limit: maxDepth)
        let descriptionOffset = position
        let (description, index) = try readStringLike(type)
        let parsed: (className: String, names: [String])
        if let cached = cachedDescription(at: index) {
            parsed = cached
        } else {
            guard let parsedNow = Self.parseDescription(description) else {
                throw .invalidClassDescription(offset: descriptionOffset)
            }
            parsed = parsedNow
            cacheDescription(parsed, at: index)
        }
        let bean = SpearalBean(className: parsed.className)
        bean.properties.reserveCapacity(parsed.names.count)
        let value = SpearalValue.bean(bean)
        register(value)
        for name in parsed.names {
            bean.properties.append((name, try readValue(depth: depth + 1)))
        }
        return value
    }

    /// Splits `Class#a,b` into the class name and property names; `X#` has no properties.
    static func parseDescription(_ description: String) -> (className: String, names: [String])? {
        guard let hash = description.utf8.firstIndex(of: UInt8(ascii: "#")) else { return nil }
        let className = String(description[..<hash])
        let rest = description[description.utf8.index(after: hash)...]
        guard !rest.isEmpty else { return (className, []) }
        return (className, rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }
}
