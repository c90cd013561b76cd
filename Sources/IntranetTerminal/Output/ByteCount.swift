import Foundation

/// Sizes for people, in decimal units as file managers show them: `512 B`, `48.1 kB`,
/// `3.4 MB`, `1.2 GB`.
enum ByteCount {
    /// `bytes` with one decimal in the largest unit under which it is at least 1.
    ///
    /// - Parameter bytes: a size in bytes.
    static func format(_ bytes: Int64) -> String {
        guard bytes >= 1_000 else { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1_000
        var unit = 0
        // 999,950 bytes would round to "1000.0 kB": it is 1.0 MB.
        while value >= 999.95, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
