extension SpearalValue: Equatable {
    /// Structural equality: same kinds and same content, whatever the object identities.
    ///
    /// Doubles compare by bit pattern (so `NaN == NaN` and `0.0 != -0.0`, as on the wire);
    /// big integrals compare in their exponentized form (`"1000"` equals `"1E3"`); cycles
    /// compare equal when both sides loop at the same place.
    public static func == (lhs: SpearalValue, rhs: SpearalValue) -> Bool {
        var comparison = StructuralComparison()
        return comparison.equal(lhs, rhs)
    }
}

/// Compares two values deeply, remembering object pairs under comparison so cycles terminate.
private struct StructuralComparison {
    private var pairs: Set<[ObjectIdentifier]> = []

    mutating func equal(_ lhs: SpearalValue, _ rhs: SpearalValue) -> Bool {
        if let left = lhs.object, let right = rhs.object {
            let pair = [ObjectIdentifier(left), ObjectIdentifier(right)]
            if pairs.contains(pair) { return true }
            pairs.insert(pair)
        }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integral(let a), .integral(let b)): return a == b
        case (.bigIntegral(let a), .bigIntegral(let b)):
            return SpearalBigNumberText.exponentized(a) == SpearalBigNumberText.exponentized(b)
        case (.floating(let a), .floating(let b)): return a.bitPattern == b.bitPattern
        case (.bigFloating(let a), .bigFloating(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.byteArray(let a), .byteArray(let b)): return a.bytes == b.bytes
        case (.dateTime(let a), .dateTime(let b)): return a == b
        case (.collection(let a), .collection(let b)):
            return a.elements.count == b.elements.count
                && zip(a.elements, b.elements).allSatisfy { equal($0, $1) }
        case (.map(let a), .map(let b)):
            return a.entries.count == b.entries.count
                && zip(a.entries, b.entries).allSatisfy { equal($0.key, $1.key) && equal($0.value, $1.value) }
        case (.enumValue(let a), .enumValue(let b)): return a == b
        case (.classValue(let a), .classValue(let b)): return a == b
        case (.bean(let a), .bean(let b)):
            return a.className == b.className && a.properties.count == b.properties.count
                && zip(a.properties, b.properties).allSatisfy { $0.name == $1.name && equal($0.value, $1.value) }
        default: return false
        }
    }
}
