import Foundation

/// A model whose reads can ask the server for only some of its properties, and the type such
/// a read decodes into.
///
/// The partial type is a different type on purpose: a screen that asked for titles only can
/// never pass what it got where a whole model is expected. The request says what it wants in
/// the client's format (``BodyCoder/selecting(_:of:in:)``): `?fields=` in JSON, a
/// `Spearal-PropertyFilter` header in Spearal.
///
/// ```swift
/// let titles = try await repository.read(page: 1, pageSize: 50, fields: [.title])
/// titles.items.first?.title   // String?, the body was never sent
/// ```
public protocol PropertySelecting {
    /// The properties a read may ask for (the id always comes).
    associatedtype Property: Hashable, Sendable, RawRepresentable where Property.RawValue == String
    /// What a read with a selection decodes into: every property optional but the id.
    associatedtype Partial: Decodable & Sendable
    /// The model's class name on the wire, which a Spearal filter names.
    static var remoteClassName: String { get }
}

extension Readable where Entity: PropertySelecting {
    /// Reads only some properties of one member, keeping the response's `ETag` (a guarded write
    /// may use it: it names the same revision).
    ///
    /// - Parameters:
    ///   - id: the member's id.
    ///   - fields: the properties wanted; the id always comes.
    /// - Throws: a ``RepositoryError``.
    public func readVersioned(id: ID, fields: Set<Entity.Property>) async throws -> Versioned<Entity.Partial> {
        let request = client.coder.selecting(
            fields.map(\.rawValue).sorted(), of: Entity.remoteClassName, in: RESTRequest(.get, path: path(for: id)))
        return try await client.versioned(request, as: Entity.Partial.self)
    }

    /// Reads only some properties of one member.
    ///
    /// - Parameters:
    ///   - id: the member's id.
    ///   - fields: the properties wanted; the id always comes.
    /// - Throws: a ``RepositoryError``.
    public func read(id: ID, fields: Set<Entity.Property>) async throws -> Entity.Partial {
        try await readVersioned(id: id, fields: fields).value
    }
}

extension Readable where ListItem: PropertySelecting {
    /// Reads one page with only some properties of each item.
    ///
    /// - Parameters:
    ///   - page: the 1-based page number.
    ///   - pageSize: the number of items per page.
    ///   - fields: the properties wanted; ids always come.
    /// - Throws: a ``RepositoryError``.
    public func read(page: Int, pageSize: Int, fields: Set<ListItem.Property>) async throws -> Page<ListItem.Partial> {
        let names = fields.map(\.rawValue).sorted()
        return try await read(page: page, pageSize: pageSize, extraQuery: [], as: ListItem.Partial.self) { request in
            client.coder.selecting(names, of: ListItem.remoteClassName, in: request)
        }
    }
}
