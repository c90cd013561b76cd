/// The high nibbles (and constants) of the type byte, as listed in docs/spearal.md section 2.
enum SpearalTypeByte {
    static let null: UInt8 = 0x00
    static let `true`: UInt8 = 0x01
    static let `false`: UInt8 = 0x02
    static let integral: UInt8 = 0x10
    static let bigIntegral: UInt8 = 0x20
    static let floating: UInt8 = 0x30
    static let bigFloating: UInt8 = 0x40
    static let string: UInt8 = 0x50
    static let byteArray: UInt8 = 0x60
    static let dateTime: UInt8 = 0x70
    static let collection: UInt8 = 0x80
    static let map: UInt8 = 0x90
    static let enumValue: UInt8 = 0xA0
    static let classValue: UInt8 = 0xB0
    static let bean: UInt8 = 0xC0

    /// Bit 3: the value is a reference to an object already sent.
    static let objectReference: UInt8 = 0x08
    /// Bit 2: the value is a reference into the string table.
    static let stringReference: UInt8 = 0x04

    /// The symbols of big-number text, by nibble value.
    static let bigNumberSymbols: [UInt8] = Array("0123456789+-.E".utf8)

    /// The number of bytes, minus one, needed to write `value` unsigned (0 for 0...0xFF).
    static func length0(of value: UInt64) -> Int {
        var length0 = 0
        var rest = value >> 8
        while rest != 0 {
            length0 += 1
            rest >>= 8
        }
        return length0
    }
}
