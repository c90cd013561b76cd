import IntranetAPI

/// Content negotiation between the formats (docs/api.md, "Formats: JSON and Spearal").
extension WireFormat {
    /// The media types offered, for 406 and 415 answers.
    static let offered = allCases.map(\.mediaType).joined(separator: ", ")

    /// The format the ranges of an `Accept` header prefer, or `nil` when they allow neither.
    ///
    /// Each format gets the quality of the most specific range that admits it (RFC 9110
    /// §12.5.1: `application/json;q=0, */*` refuses JSON); the higher quality wins, JSON on a
    /// tie.
    static func preferred(by ranges: [MediaRange]) -> WireFormat? {
        var best: (format: WireFormat, quality: Double)?
        for format in allCases {
            let quality = format.quality(in: ranges)
            if quality > 0, quality > best?.quality ?? 0 {
                best = (format, quality)
            }
        }
        return best?.format
    }

    /// The quality `ranges` give this format: that of the most specific admitting range, 0 when
    /// none admits it.
    func quality(in ranges: [MediaRange]) -> Double {
        let (type, subtype) = typeAndSubtype
        var chosen: (specificity: Int, quality: Double)?
        for range in ranges where range.admits(type: type, subtype: subtype) {
            let specificity = range.specificity
            if specificity > chosen?.specificity ?? -1 {
                chosen = (specificity, range.quality)
            } else if specificity == chosen?.specificity, let current = chosen?.quality {
                chosen?.quality = max(current, range.quality)
            }
        }
        return chosen?.quality ?? 0
    }

    private var typeAndSubtype: (String, String) {
        ("application", rawValue)
    }
}

extension MediaRange {
    /// How specific the range is: 2 for `type/subtype`, 1 for `type/*`, 0 for `*/*`.
    var specificity: Int {
        type == "*" ? 0 : subtype == "*" ? 1 : 2
    }
}
