/// Why a response body could not be turned into the expected type.
public struct DecodingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The position of the list item that failed, when a list was decoded.
    public var index: Int?
    /// The path to the offending value, e.g. `[3].title`.
    public var codingPath: String
    /// The decoder's explanation.
    public var reason: String

    /// Creates a decoding failure.
    public init(index: Int?, codingPath: String, reason: String) {
        self.index = index
        self.codingPath = codingPath
        self.reason = reason
    }

    /// Describes the failure from a `DecodingError` (or any other error).
    ///
    /// - Parameters:
    ///   - error: what the decoder threw.
    ///   - isList: whether the top level was a list, so the first path element is an index.
    public init(_ error: any Error, isList: Bool) {
        let (path, reason) = DecodingFailure.describe(error)
        let index = isList ? path.first?.intValue : nil
        self.init(index: index, codingPath: DecodingFailure.render(path), reason: reason)
    }

    /// A sentence naming the item and the path.
    public var description: String {
        let place = codingPath.isEmpty ? "the body" : codingPath
        if let index {
            return "list item \(index) could not be decoded at \(place): \(reason)"
        }
        return "could not decode \(place): \(reason)"
    }

    private static func describe(_ error: any Error) -> ([any CodingKey], String) {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .dataCorrupted(let context):
            return (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key], context.debugDescription)
        case .none:
            return ([], String(describing: error))
        @unknown default:
            return ([], String(describing: error))
        }
    }

    private static func render(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }
}
