extension SpearalPrinter {
    /// The text built so far and the object indexes already shown.
    struct State {
        let indentation: String
        var output = ""
        private var objects: [ObjectIdentifier: Int] = [:]

        init(indentation: String) {
            self.indentation = indentation
        }

        mutating func append(_ value: SpearalValue, level: Int) {
            if let object = value.object {
                let identifier = ObjectIdentifier(object)
                if let index = objects[identifier] {
                    output += "@\(index)"
                    return
                }
                let index = objects.count
                objects[identifier] = index
                output += "#\(index) "
            }
            switch value {
            case .null: output += "nil"
            case .bool(let flag): output += flag ? "true" : "false"
            case .integral(let integer): output += String(integer)
            case .bigIntegral(let text), .bigFloating(let text): output += text
            case .floating(let double): output += String(double)
            case .string(let string): output += "\"" + SpearalPrinter.escape(string) + "\""
            case .byteArray(let array): output += "[" + array.bytes.map { String($0) }.joined(separator: ", ") + "]"
            case .dateTime(let dateTime): output += Self.format(dateTime)
            case .collection(let list):
                appendBlock(open: "[", close: "]", items: list.elements, level: level) { state, element, level in
                    state.append(element, level: level)
                }
            case .map(let map):
                appendBlock(open: "{", close: "}", items: map.entries, level: level) { state, entry, level in
                    state.append(entry.key, level: level)
                    state.output += ": "
                    state.append(entry.value, level: level)
                }
            case .enumValue(let constant):
                output += SpearalPrinter.escape(constant.className) + "." + SpearalPrinter.escape(constant.name)
            case .classValue(let name): output += SpearalPrinter.escape(name)
            case .bean(let bean):
                output += SpearalPrinter.escape(bean.className) + " "
                appendBlock(open: "{", close: "}", items: bean.properties, level: level) { state, property, level in
                    state.output += SpearalPrinter.escape(property.name) + ": "
                    state.append(property.value, level: level)
                }
            }
        }

        /// Appends `open`, one indented line per item separated by `,`, then `close`.
        private mutating func appendBlock<Item>(open: String, close: String, items: [Item], level: Int,
                                                appendItem: (inout State, Item, Int) -> Void) {
            output += open
            guard !items.isEmpty else {
                output += close
                return
            }
            let inner = String(repeating: indentation, count: level + 1)
            for (position, item) in items.enumerated() {
                output += position == 0 ? "\n" : ",\n"
                output += inner
                appendItem(&self, item, level + 1)
            }
            output += "\n" + String(repeating: indentation, count: level) + close
        }

        /// ISO 8601 text: `2014-11-20T10:30:15.123Z`, `2014-11-20` or `10:30:15`.
        private static func format(_ value: SpearalDateTime) -> String {
            var parts: [String] = []
            if value.hasDate {
                parts.append("\(value.year)-\(pad(value.month, 2))-\(pad(value.day, 2))")
            }
            if value.hasTime {
                var time = "\(pad(value.hour, 2)):\(pad(value.minute, 2)):\(pad(value.second, 2))"
                if value.nanosecond != 0 {
                    var fraction = pad(value.nanosecond, 9)
                    while fraction.hasSuffix("000") { fraction.removeLast(3) }
                    time += "." + fraction
                }
                parts.append(time + (value.hasDate ? "Z" : ""))
            }
            return parts.joined(separator: "T")
        }

        private static func pad(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }
}
