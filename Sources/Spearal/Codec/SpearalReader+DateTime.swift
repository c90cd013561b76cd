extension SpearalReader {
    /// Reads a DATE_TIME whose flags and sub-second unit are in the low nibble of `type`.
    mutating func readDateTime(_ type: UInt8, offset: Int) throws(SpearalError) -> SpearalDateTime {
        let hasDate = type & 0x08 != 0
        let hasTime = type & 0x04 != 0
        let unit = Int(type & 0x03)
        var value = SpearalDateTime(hasDate: hasDate, hasTime: hasTime, year: 2000, month: 1, day: 1,
                                    hour: 0, minute: 0, second: 0, nanosecond: 0)
        if hasDate {
            let monthByte = try readByte()
            value.day = Int(try readByte())
            value.month = Int(monthByte & 0x0F)
            let offsetFromYear2000 = Int(try readUnsigned(Int((monthByte >> 4) & 0x03) + 1))
            value.year = monthByte & 0x80 != 0 ? 2000 - offsetFromYear2000 : 2000 + offsetFromYear2000
        }
        if hasTime {
            let hourByte = try readByte()
            value.hour = Int(hourByte & 0x1F)
            value.minute = Int(try readByte())
            value.second = Int(try readByte())
            if unit != 0 {
                let count = Int(try readUnsigned(Int((hourByte >> 5) & 0x03) + 1))
                switch unit {
                case 1: value.nanosecond = count
                case 2: value.nanosecond = count &* 1000
                default: value.nanosecond = count &* 1_000_000
                }
            }
        }
        guard value.isValid else { throw .invalidDateTime(offset: offset) }
        return value
    }
}
