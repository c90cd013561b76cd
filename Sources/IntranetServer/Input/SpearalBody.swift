import Foundation
import IntranetAPI
import Spearal

/// Turns a Spearal request body into the ``JSONValue`` the inputs validate.
///
/// A bean becomes an object holding exactly the properties it carries (its class name is not
/// checked: the route says what the body is), a collection an array, a map with string keys an
/// object, an enum constant its name, a date its RFC 3339 text. Everything the API has no field
/// for (byte arrays, class values) and everything that could not come from a tree of plain
/// values is a 400 naming where it is: a cycle, or shared references that would expand the body
/// beyond its own size.
enum SpearalBody {
    /// Parses a request body.
    ///
    /// - Throws: ``APIError`` 400 naming the first problem.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        let value: SpearalValue
        do {
            value = try SpearalDecoder().decodeValue(from: Data(bytes))
        } catch {
            throw APIError.badRequest("The request body is not valid Spearal (\(error.explanation)).")
        }
        defer { value.dismantle() }
        var converter = Converter(budget: max(bytes.count, 64))
        return try converter.convert(value, at: "$")
    }

    private struct Converter {
        /// Values still allowed to be produced; shared references must not multiply the body.
        var budget: Int
        /// The objects being converted, outermost first, to detect cycles.
        var path: [ObjectIdentifier] = []

        mutating func convert(_ value: SpearalValue, at location: String) throws -> JSONValue {
            budget -= 1
            guard budget >= 0 else {
                throw APIError.badRequest("The request body is not valid here: its shared references expand it beyond its size (at \(location)).")
            }
            switch value {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .integral(let number): return .number(Double(number))
            case .floating(let number): return .number(number)
            case .bigIntegral(let text), .bigFloating(let text):
                guard let number = Double(text) else { throw unsupported("a number too large", at: location) }
                return .number(number)
            case .string(let text): return .string(text)
            case .dateTime(let dateTime): return .string(IntranetJSON.format(dateTime.date))
            case .enumValue(let constant): return .string(constant.name)
            case .byteArray: throw unsupported("a byte array", at: location)
            case .classValue: throw unsupported("a class value", at: location)
            case .collection(let list):
                try enter(list, at: location)
                defer { path.removeLast() }
                var items: [JSONValue] = []
                for (index, element) in list.elements.enumerated() {
                    items.append(try convert(element, at: "\(location)[\(index)]"))
                }
                return .array(items)
            case .map(let map):
                try enter(map, at: location)
                defer { path.removeLast() }
                var members: [String: JSONValue] = [:]
                for entry in map.entries {
                    guard case .string(let key) = entry.key else { throw unsupported("a map key that is not a string", at: location) }
                    members[key] = try convert(entry.value, at: "\(location).\(key)")
                }
                return .object(members)
            case .bean(let bean):
                try enter(bean, at: location)
                defer { path.removeLast() }
                var members: [String: JSONValue] = [:]
                for property in bean.properties {
                    members[property.name] = try convert(property.value, at: location == "$" ? property.name : "\(location).\(property.name)")
                }
                return .object(members)
            }
        }

        /// Starts converting an object's contents (the caller leaves it by removing it from
        /// ``path``), refusing an object that is already being converted.
        private mutating func enter(_ object: AnyObject, at location: String) throws {
            let id = ObjectIdentifier(object)
            guard !path.contains(id) else {
                throw APIError.badRequest("The request body is not valid here: it holds a cycle (\(location) refers back to an object that contains it).")
            }
            path.append(id)
        }

        private func unsupported(_ what: String, at location: String) -> APIError {
            APIError.badRequest("The request body holds \(what) at \(location); no field of this API takes one.")
        }
    }
}

extension SpearalError {
    /// What is wrong with the bytes, in words, with the byte offset where it was found.
    var explanation: String {
        switch self {
        case .truncated(let offset, let needed): "it ends early: \(needed) more bytes were needed at byte \(offset)"
        case .unknownTypeByte(let byte, let offset): "unknown type byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidUTF8(let offset): "text that is not UTF-8 at byte \(offset)"
        case .invalidStringReference(let index, let offset): "a reference to string \(index), which was not sent, at byte \(offset)"
        case .invalidObjectReference(let index, let offset): "a reference to object \(index), which was not sent, at byte \(offset)"
        case .lengthExceedsInput(let length, let offset): "a length of \(length) at byte \(offset), longer than the body"
        case .depthLimitExceeded(let limit, let offset): "values nested deeper than \(limit) levels at byte \(offset)"
        case .trailingBytes(let count, let offset): "\(count) bytes after the value, from byte \(offset)"
        case .integralOverflow(let offset): "an integer beyond 64 bits at byte \(offset)"
        case .invalidBigNumber(let offset): "a malformed big number at byte \(offset)"
        case .invalidDateTime(let offset): "an impossible date or time at byte \(offset)"
        case .invalidEnumConstant(let offset): "a malformed enum constant at byte \(offset)"
        case .invalidClassDescription(let offset): "a class description without '#' at byte \(offset)"
        case .cyclicReference(let className): "a cycle through \(className)"
        case .unencodableValue(let what): "an unencodable value: \(what)"
        case .invalidPropertyFilter(let value): "an invalid property filter: \(value)"
        }
    }
}
