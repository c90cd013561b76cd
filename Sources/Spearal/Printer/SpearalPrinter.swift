import Foundation

/// Renders a ``SpearalValue`` as readable text for logging requests and responses, in the
/// style of the reference iOS client:
///
/// ```
/// #0 org.example.Person {
/// 	id: 1,
/// 	name: "Uzumaki Naruto",
/// 	worstEnemy: #1 org.example.Person {
/// 		id: 4,
/// 		worstEnemy: @0
/// 	}
/// }
/// ```
///
/// `#n` introduces object n of the message's object table (byte arrays, collections, maps,
/// beans), `@n` refers back to it, `nil` is null. Unlike the 2014 client, strings are escaped
/// (`\"`, `\\`, `\n`, `\t`, `\u{7}`...) so that a dump is one unambiguous text.
public struct SpearalPrinter: Sendable {
    /// The text repeated once per nesting level (default: one tab).
    public var indentation: String

    /// Creates a printer.
    /// - Parameter indentation: the text for one level of indentation.
    public init(indentation: String = "\t") {
        self.indentation = indentation
    }

    /// Renders `value`; object indexes follow the order in which an encoder would send them.
    /// - Parameter value: the value to dump.
    public func print(_ value: SpearalValue) -> String {
        var state = State(indentation: indentation)
        state.append(value, level: 0)
        return state.output
    }

    /// Decodes `data` and renders it.
    /// - Parameters:
    ///   - data: a Spearal message.
    ///   - options: the decoding limits.
    /// - Throws: the ``SpearalError`` of malformed data.
    public func print(_ data: Data, options: SpearalDecodingOptions = SpearalDecodingOptions()) throws(SpearalError) -> String {
        print(try SpearalReader.readMessage(in: data, options: options).value)
    }

    /// Escapes `text` so it can be quoted: backslash, quote and control characters.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
