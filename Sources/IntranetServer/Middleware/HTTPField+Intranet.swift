import HTTPTypes
import IntranetAPI

extension HTTPField.Name {
    static let acceptVersion = Self(HeaderName.acceptVersion)!
    static let apiVersion = Self(HeaderName.apiVersion)!
    static let requestID = Self(HeaderName.requestID)!
    static let total = Self(HeaderName.total)!
    static let page = Self(HeaderName.page)!
    static let perPage = Self(HeaderName.perPage)!
    static let link = Self("Link")!
    static let importProgressID = Self(HeaderName.importProgressID)!
}
