import HTTPTypes
import Hummingbird

extension CachedResponse {
    /// A `200` with this body, or `304 Not Modified` when the request's `If-None-Match` holds
    /// this entry's tag (with the `Cache-Control` and `Vary` the `200` would carry, RFC 9110
    /// §15.4.5: a personal answer's 304 says it is personal, so no shared cache keeps it).
    func response(for request: Request) -> Response {
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: etag) {
            var headers: HTTPFields = [.eTag: etag]
            headers[.cacheControl] = self.headers[.cacheControl]
            if let vary = self.headers[.vary] {
                headers[.vary] = vary
                headers[.apiVersion] = self.headers[.apiVersion]
            }
            return Response(status: .notModified, headers: headers)
        }
        return response(status: .ok)
    }

    /// This representation with the given status.
    func response(status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
