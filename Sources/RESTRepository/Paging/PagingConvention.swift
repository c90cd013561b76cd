import Foundation
import HTTPTypes

/// The names a server uses for paging: query parameters sent and header fields read.
///
/// The defaults are the Grape style (`page`, `per_page`; `X-Page`, `X-Per-Page`, `X-Total`,
/// `Link`) that many REST servers share.
public struct PagingConvention: Sendable, Equatable {
    /// The query parameter carrying the 1-based page number.
    public var pageParameter: String
    /// The query parameter carrying the page size.
    public var pageSizeParameter: String
    /// The query parameter naming the field a sorted list is sorted by.
    public var sortParameter: String
    /// The query parameter carrying a sorted list's direction (`asc` or `desc`).
    public var orderParameter: String
    /// The header field carrying the page number of a response.
    public var pageField: HTTPField.Name
    /// The header field carrying the page size of a response.
    public var pageSizeField: HTTPField.Name
    /// The header field carrying the total number of items.
    public var totalField: HTTPField.Name

    /// Creates a convention; every name has the Grape-style default (and `sort`, `order`).
    public init(
        pageParameter: String = "page",
        pageSizeParameter: String = "per_page",
        sortParameter: String = "sort",
        orderParameter: String = "order",
        pageField: HTTPField.Name = .xPage,
        pageSizeField: HTTPField.Name = .xPerPage,
        totalField: HTTPField.Name = .xTotal
    ) {
        self.pageParameter = pageParameter
        self.pageSizeParameter = pageSizeParameter
        self.sortParameter = sortParameter
        self.orderParameter = orderParameter
        self.pageField = pageField
        self.pageSizeField = pageSizeField
        self.totalField = totalField
    }

    /// Reads the paging information of a response; an absent or malformed field gives `nil`.
    ///
    /// - Parameter headerFields: the response header fields.
    public func pageInfo(from headerFields: HTTPFields) -> PageInfo {
        func number(_ name: HTTPField.Name) -> Int? {
            headerFields[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        let links = headerFields[values: .link].flatMap(LinkHeader.parse)
        return PageInfo(
            page: number(pageField),
            pageSize: number(pageSizeField),
            total: number(totalField),
            links: links)
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288).
    public static var link: Self { Self("Link")! }
    /// `X-Page`, the page number of a paged response.
    public static var xPage: Self { Self("X-Page")! }
    /// `X-Per-Page`, the page size of a paged response.
    public static var xPerPage: Self { Self("X-Per-Page")! }
    /// `X-Total`, the total number of items of a paged list.
    public static var xTotal: Self { Self("X-Total")! }
}
