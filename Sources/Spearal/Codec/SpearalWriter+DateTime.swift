extension SpearalWriter {
    /// Writes a DATE_TIME: flags and unit in the type byte, then the date and time parts.
    mutating func writeDateTime(_ value: SpearalDateTime) throws(SpearalError) {
        guard value.isValid else {
            throw .unencodableValue("date/time field out of range: \(value)")
        }
        let (unit, subsecond) = Self.subsecondUnit(value.hasTime ? value.nanosecond : 0)
        var type = SpearalTypeByte.dateTime | UInt8(unit)
        if value.hasDate { type |= 0x08 }
        if value.hasTime { type |= 0x04 }
        output.append(type)
        if value.hasDate {
            let offset = value.year - 2000
            let magnitude = UInt64(offset.magnitude)
            let length0 = SpearalTypeByte.length0(of: magnitude)
            output.append((offset < 0 ? 0x80 : 0) | UInt8(length0 << 4) | UInt8(value.month))
            output.append(UInt8(value.day))
            output.appendUnsigned(magnitude, length0: length0)
        }
        if value.hasTime {
            let length0 = unit == 0 ? 0 : SpearalTypeByte.length0(of: subsecond)
            output.append(UInt8(length0 << 5) | UInt8(value.hour))
            output.append(UInt8(value.minute))
            output.append(UInt8(value.second))
            if unit != 0 {
                output.appendUnsigned(subsecond, length0: length0)
            }
        }
    }

    /// The coarsest unit (3 ms, 2 µs, 1 ns, 0 none) that holds `nanosecond` exactly, and the count.
    private static func subsecondUnit(_ nanosecond: Int) -> (Int, UInt64) {
        let nanos = UInt64(nanosecond)
        if nanos == 0 { return (0, 0) }
        if nanos % 1_000_000 == 0 { return (3, nanos / 1_000_000) }
        if nanos % 1000 == 0 { return (2, nanos / 1000) }
        return (1, nanos)
    }
}
