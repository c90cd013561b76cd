import Foundation
import HTTPTypes
import RESTRepository
import Testing

@Suite("RESTRequest")
struct RESTRequestTests {
    @Test("the query is percent-encoded into the path, plus signs included")
    func queryEncoding() {
        let request = RESTRequest(.get, path: "/search", query: [
            URLQueryItem(name: "q", value: "1+1 = 2 & more"), URLQueryItem(name: "flag", value: nil),
        ])

        #expect(request.httpRequest.path == "/search?q=1%2B1%20%3D%202%20%26%20more&flag")
    }

    @Test("a JSON body comes with its content type, and a nil header value changes nothing")
    func jsonBody() throws {
        let request = try RESTRequest(.post, path: "/notes")
            .withJSONBody(["text": "hi"], encoder: JSONEncoder(), contentType: "application/merge-patch+json")
            .setting(.ifMatch, to: nil)

        #expect(request.body == Data(#"{"text":"hi"}"#.utf8))
        #expect(request.headerFields[.contentType] == "application/merge-patch+json")
        #expect(request.headerFields[.ifMatch] == nil)
    }

    @Test("a value that cannot be encoded throws encodingFailed before anything is sent")
    func encodingFailure() {
        #expect(throws: RepositoryError.self) {
            try RESTRequest(.post, path: "/n").withJSONBody(["x": Double.nan], encoder: JSONEncoder())
        }
    }
}
