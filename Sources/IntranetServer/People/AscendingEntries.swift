extension Array where Element == Int32 {
    /// The elements of this ascending array that `other` (ascending too) holds, ascending.
    ///
    /// Stepping through both when they are of like sizes; when `other` is much the longer,
    /// looking each element up in it by halving the part not yet passed, so that narrowing a
    /// few hundred entries by a list of tens of thousands reads a few thousand of its elements.
    func intersection(ofAscending other: [Int32]) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(Swift.min(count, other.count))
        var low = 0
        if other.count > 8 * count {
            for element in self {
                var high = other.count
                while low < high {
                    let middle = (low + high) / 2
                    if other[middle] < element { low = middle + 1 } else { high = middle }
                }
                guard low < other.count else { break }
                if other[low] == element { result.append(element) }
            }
        } else {
            for element in self {
                while low < other.count, other[low] < element { low += 1 }
                guard low < other.count else { break }
                if other[low] == element { result.append(element) }
            }
        }
        return result
    }
}
