import Foundation
import IntranetAPI
import Spearal

/// Turns a Spearal request body into the ``JSONValue`` the inputs validate.
///
/// A bean becomes an object holding exactly the properties it carries (its class name is not
/// checked: the route says what the body is), a collection an array, a map with string keys an
/// object, an enum constant its name, a DATE_TIME where the API has an instant
/// (``instantProperties``) its RFC 3339 text. Everything the API has no field for (byte arrays,
/// dates elsewhere, class values, numbers beyond a double) is a 400 naming where it is, and so is everything
/// that could not come from a tree of plain values of the body's size: a cycle, nesting deeper
/// than JSON may nest, a property name longer than any the API has, or shared references that
/// would expand the body beyond its own size. The work is linear in the body's size.
enum SpearalBody {
    /// Longest property name or map key accepted, in UTF-8 bytes (the API's longest is 11).
    static let maxNameLength = 256
    /// The properties that hold an instant (API 3.0's publishing times).
    static let instantProperties: Set<String> = ["publishAt", "expiresAt", "pinnedUntil"]

    /// Parses a request body.
    ///
    /// - Throws: ``APIError`` 400 naming the first problem.
    static func parse(_ bytes: Data) throws -> JSONValue {
        let value: SpearalValue
        do {
            value = try SpearalDecoder().decodeValue(from: bytes)
        } catch {
            throw APIError.badRequest("The request body is not valid Spearal (\(error.explanation)).")
        }
        defer { value.dismantle() }
        var converter = Converter(budget: max(bytes.count, 64))
        return try converter.convert(value)
    }

    private struct Converter {
        /// Values still allowed to be produced; shared references must not multiply the body.
        var budget: Int
        /// Where the value being converted is: property names, keys and indexes, outermost first.
        var path: [PathPart] = []
        /// The objects being converted, to detect cycles.
        var open: Set<ObjectIdentifier> = []

        enum PathPart {
            case name(String)
            case index(Int)
        }

        mutating func convert(_ value: SpearalValue) throws -> JSONValue {
            budget -= 1
            guard budget >= 0 else {
                throw invalid("its shared references expand it beyond its size")
            }
            switch value {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .integral(let number): return .number(Double(number))
            case .floating(let number) where number.isFinite: return .number(number)
            case .bigIntegral(let text), .bigFloating(let text):
                guard let number = Double(text), number.isFinite else { throw unsupported("a number beyond a double") }
                return .number(number)
            case .floating: throw unsupported("a number that is not finite")
            case .string(let text): return .string(text)
            case .enumValue(let constant): return .string(constant.name)
            case .dateTime(let dateTime):
                // An instant where the API has one (publishing times): the RFC 3339 text the
                // inputs read, as JSON sends it.
                guard case .name(let name)? = path.last, SpearalBody.instantProperties.contains(name) else { throw unsupported("a date") }
                guard dateTime.hasDate, dateTime.hasTime, dateTime.date.timeIntervalSince1970.isFinite else {
                    throw unsupported("a date without a time")
                }
                return .string(IntranetJSON.format(dateTime.date))
            case .byteArray: throw unsupported("a byte array")
            case .classValue: throw unsupported("a class value")
            case .collection(let list):
                try enter(list)
                defer { leave(list) }
                var items: [JSONValue] = []
                items.reserveCapacity(min(list.elements.count, budget))
                for (index, element) in list.elements.enumerated() {
                    path.append(.index(index))
                    items.append(try convert(element))
                    path.removeLast()
                }
                return .array(items)
            case .map(let map):
                try enter(map)
                defer { leave(map) }
                var members: [String: JSONValue] = [:]
                for entry in map.entries {
                    guard case .string(let key) = entry.key else { throw unsupported("a map key that is not a string") }
                    members[try name(key)] = try member(key, entry.value)
                }
                return .object(members)
            case .bean(let bean):
                try enter(bean)
                defer { leave(bean) }
                var members: [String: JSONValue] = [:]
                for property in bean.properties {
                    members[try name(property.name)] = try member(property.name, property.value)
                }
                return .object(members)
            }
        }

        private mutating func member(_ name: String, _ value: SpearalValue) throws -> JSONValue {
            path.append(.name(name))
            defer { path.removeLast() }
            return try convert(value)
        }

        /// A property name or key, refused when longer than any the API has.
        private func name(_ text: String) throws -> String {
            guard text.utf8.count <= SpearalBody.maxNameLength else {
                throw invalid("a property name longer than \(SpearalBody.maxNameLength) bytes")
            }
            return text
        }

        /// Starts converting an object's contents, refusing a cycle and nesting deeper than JSON may.
        private mutating func enter(_ object: AnyObject) throws {
            guard open.count < StrictJSONParser.maxDepth else {
                throw invalid("it is nested deeper than \(StrictJSONParser.maxDepth) levels")
            }
            guard open.insert(ObjectIdentifier(object)).inserted else {
                throw invalid("it holds a cycle: an object contains itself")
            }
        }

        private mutating func leave(_ object: AnyObject) {
            open.remove(ObjectIdentifier(object))
        }

        private func unsupported(_ what: String) -> APIError {
            APIError.badRequest("The request body holds \(what) at \(location); no field of this API takes one.")
        }

        private func invalid(_ reason: String) -> APIError {
            APIError.badRequest("The request body is not valid here: \(reason) (at \(location)).")
        }

        /// The path as text for a message: `title`, `readers[2]`; each name cut to 40
        /// characters and the whole to the last 8 parts, since names come from the client.
        private var location: String {
            guard !path.isEmpty else { return "the top level" }
            var text = path.count > 8 ? "…" : ""
            for part in path.suffix(8) {
                switch part {
                case .index(let index): text += "[\(index)]"
                case .name(let name):
                    let shown = name.count > 40 ? name.prefix(40) + "…" : Substring(name)
                    text += (text.isEmpty ? "" : ".") + shown
                }
            }
            return text
        }
    }
}
