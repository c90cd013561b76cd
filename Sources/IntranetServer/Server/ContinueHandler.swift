import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` (RFC 9110 §10.1.1) with `100 Continue` as the request's head
/// arrives, which Hummingbird does not: clients that ask (curl does for bodies over 1 MiB) would
/// otherwise wait a second before sending an upload. The final answer follows as usual, and may
/// still refuse the body (a 401, a 413 for a declared length over the limit).
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a request that signs in may send a body anything keeps.
        if case .head(let head) = unwrapInboundIn(data),
           head.headerFields[values: .expect].contains(where: { $0.lowercased() == "100-continue" }),
           head.headerFields[.authorization] != nil || head.headerFields[.cookie] != nil {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
