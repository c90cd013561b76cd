/// How spearal-java writes a double (docs/spearal.md section 3.3).
enum SpearalFloatingForm: Equatable {
    /// An integral double within ±(2^52−1): written as INTEGRAL.
    case integral(Int)
    /// A value with at most three decimals: ±magnitude / 1000 in the compact form.
    case compact(negative: Bool, magnitude: UInt64)
    /// Anything else: the 8 IEEE-754 bytes.
    case raw

    /// The largest integral double written as INTEGRAL (2^52 − 1).
    static let maxIntegral: Double = 4_503_599_627_370_495
    /// The largest compact magnitude (0xFFFFFFFF).
    static let maxCompact: Int64 = 0xFFFF_FFFF

    init(_ value: Double) {
        guard value.isFinite, !(value == 0 && value.sign == .minus) else {
            self = .raw
            return
        }
        if value == value.rounded(.towardZero) {
            // Integral: Java sends it as a long when it is small enough, raw otherwise.
            self = abs(value) <= Self.maxIntegral ? .integral(Int(value)) : .raw
            return
        }
        let scaled = value * 1000
        guard abs(scaled) < 9.0e18 else {
            self = .raw
            return
        }
        var thousandths = Int64(scaled)
        if Double(thousandths) / 1000 != value {
            // A product such as 1004.9999... truncates one step too low: try one step further out.
            thousandths += value < 0 ? -1 : 1
            guard Double(thousandths) / 1000 == value else {
                self = .raw
                return
            }
        }
        guard thousandths.magnitude <= UInt64(Self.maxCompact) else {
            self = .raw
            return
        }
        self = .compact(negative: thousandths < 0, magnitude: thousandths.magnitude)
    }
}
