import Foundation
import HTTPTypes
import IntranetAPI
import Logging
import NIOCore
import NIOHTTPTypes

/// Answers acknowledgements (`PUT /announcements/{id}/acknowledgement`, signed in with a bearer
/// token) from the connection's event loop, without entering the application: the request goes
/// to ``EarlyAcknowledgements``, which gathers it with others and writes them in one
/// transaction, and its answer is written here when the batch is done. A company confirming a
/// notice at once then costs the server an HTTP exchange and a share of a transaction each, not
/// a pass through the middleware and a task.
///
/// Only the plain case is answered here: a `PUT` without a cookie, a `Content-Length` other than
/// 0 or `Connection: close`, with one bearer token, an id and at most a valid `round`, and a
/// format and version the API serves (a chunked body, which clients built on SwiftNIO send empty
/// and the application never reads, is dropped); and only when the acknowledgement is given
/// (now, or before in the same round). Every other request, and every other outcome (an unknown
/// token, a hidden announcement, another round, a failure), goes to the application, which
/// decides afresh and answers as it always does: nothing was written for those. The answer is
/// the application's but for `Date` and `X-Request-Id` (tested: body, headers and their order),
/// and is recorded in the access log and the metrics alike (`early=true`).
///
/// Answers leave in request order: a request is taken here only when the application is
/// answering none of the connection's; while one is in flight here, the requests behind it are
/// held (and reading stops) until its answer is written, and so are the events and errors that
/// come meanwhile (a client's end of input, a graceful shutdown's request to quiesce, a
/// malformed request), which the application hears of in order after them. Sits last before
/// the application, so the handlers before it see its answers as the application's.
final class AcknowledgementAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// A request handed to ``EarlyAcknowledgements`` and not answered yet.
    private struct InFlight {
        var head: HTTPRequest
        var version: APIVersion
        var format: WireFormat
        /// When it arrived, for the access log.
        var time: Date
        var start: ContinuousClock.Instant
    }

    /// What came from the client while a request was in flight, in order: the requests behind
    /// it, the end of its input, an error.
    private enum Held {
        case part(HTTPRequestPart)
        case event(Any)
        case error(any Error)
    }

    /// Hands a request to the batches; the completion is called once, from any thread.
    typealias Submit = @Sendable (EarlyAcknowledgements.Request, @escaping EarlyAcknowledgements.Completion) -> Void

    private let submit: Submit
    private let recorder: ExchangeRecorder
    private let debugLogger: Logger?
    private var stamps = EarlyAnswerStamps()
    /// Requests handed to the application and not fully answered yet.
    private var answering = 0
    private var inFlight: InFlight?
    /// Handled once the request in flight is answered (an array: empty, it takes no memory on
    /// the connections that never hold anything, live streams among them).
    private var held: [Held] = []
    /// The channel asked to read while a request was in flight.
    private var isReadHeld = false
    /// The rest of a request taken here (its `.end`) is not passed on.
    private var isDroppingRequestParts = false
    /// No request is taken here any more: one asked to close the connection, or the server is
    /// shutting down.
    private var isClosing = false
    private var isRemoved = false

    convenience init(lane: EarlyAcknowledgements, recorder: ExchangeRecorder = ExchangeRecorder(), logger: Logger) {
        self.init(submit: { lane.submit($0, completion: $1) }, recorder: recorder, logger: logger)
    }

    /// With `submit` standing for ``EarlyAcknowledgements`` (tests hold the answers back).
    init(submit: @escaping Submit, recorder: ExchangeRecorder = ExchangeRecorder(), logger: Logger) {
        self.submit = submit
        self.recorder = recorder
        self.debugLogger = logger.logLevel <= .debug ? logger : nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if inFlight != nil {
            held.append(.part(part))
        } else {
            handle(part, context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if inFlight != nil {
            isReadHeld = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A graceful shutdown takes no more requests here at once; the application hears of it,
        // as of a client's end of input, only after what came before.
        if event is ChannelShouldQuiesceEvent { isClosing = true }
        if inFlight != nil {
            held.append(.event(event))
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if inFlight != nil {
            held.append(.error(error))
        } else {
            context.fireErrorCaught(error)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), answering > 0 { answering -= 1 }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        isRemoved = true
    }

    func channelInactive(context: ChannelHandlerContext) {
        isRemoved = true
        context.fireChannelInactive()
    }

    private func handle(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            isDroppingRequestParts = false
            isClosing = isClosing || PublicAnswerKey.asksToClose(head)
            if answering == 0, !isClosing, context.channel.isWritable, let (request, version, format) = Self.early(head) {
                isDroppingRequestParts = true
                inFlight = InFlight(head: head, version: version, format: format, time: Date(), start: .now)
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                submit(request) { result in
                    bound.eventLoop.execute {
                        let (handler, context) = bound.value
                        handler.finish(result, context: context)
                    }
                }
                return
            }
            answering += 1
        case .body, .end:
            if isDroppingRequestParts { return }
        }
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// Answers the request in flight, or hands it to the application; then what was held.
    private func finish(_ result: Result<EarlyAcknowledgements.Answer, any Error>, context: ChannelHandlerContext) {
        guard !isRemoved, let request = inFlight else { return }
        inFlight = nil
        if case .success(.given(let receipt, let userID)) = result,
            let body = try? Representation(format: request.format, version: request.version).encode(receipt)
        {
            send(receipt: body, for: request, userID: userID, context: context)
        } else {
            isDroppingRequestParts = false
            answering += 1
            context.fireChannelRead(wrapInboundOut(.head(request.head)))
        }
        var index = 0
        while !isRemoved, inFlight == nil, index < held.count {
            switch held[index] {
            case .part(let part): handle(part, context: context)
            case .event(let event): context.fireUserInboundEventTriggered(event)
            case .error(let error): context.fireErrorCaught(error)
            }
            index += 1
        }
        held.removeFirst(index)
        guard !isRemoved else { return }
        context.fireChannelReadComplete()
        if inFlight == nil, isReadHeld {
            isReadHeld = false
            context.read()
        }
    }

    private func send(receipt body: ByteBuffer, for request: InFlight, userID: Int, context: ChannelHandlerContext) {
        var head = HTTPResponse(
            status: .ok,
            headerFields: [
                .contentType: request.format.mediaType, .contentLength: String(body.readableBytes), .cacheControl: "no-store",
                .apiVersion: request.version.rawValue, .vary: VersionMiddleware.vary,
            ])
        let id = stamps.stamp(&head, requestID: request.head.headerFields[.requestID])
        // Recorded first, as the application records its answers before they are written.
        if recorder.isRecording || debugLogger != nil {
            recorder.record(
                AccessLog.Entry(
                    time: request.time, requestID: id, method: request.head.method.rawValue,
                    target: request.head.path ?? AcknowledgementController.acknowledgementPath, status: 200,
                    bytes: body.readableBytes, duration: ContinuousClock.now - request.start, userID: userID, early: true),
                logger: debugLogger)
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Longest request target taken here.
    private static let maxTargetLength = 256

    /// What `head` asks, when it is an acknowledgement answered here: a `PUT` of
    /// `/announcements/{id}/acknowledgement` (with at most a valid `round`), one bearer token,
    /// no `Content-Length` but 0, no cookie, condition or expectation, and a version and format
    /// the API serves.
    static func early(_ head: HTTPRequest) -> (EarlyAcknowledgements.Request, APIVersion, WireFormat)? {
        guard head.method == .put, let target = head.path, target.utf8.count <= maxTargetLength else { return nil }
        let (path, query) = split(target)
        let prefix = AnnouncementController.collectionPath + "/", suffix = "/acknowledgement"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count,
            let id = try? PathID.parse(String(path.dropFirst(prefix.count).dropLast(suffix.count)), notFound: "")
        else { return nil }
        let round: Int?
        do {
            round = try AcknowledgementController.round(ListQuery.values(named: "round", in: query))
        } catch {
            return nil
        }
        var tokenHash: String?
        for field in head.headerFields {
            switch field.name {
            case .authorization:
                guard tokenHash == nil, field.value.utf8.count <= PublicAnswerKey.maxHeaderLength,
                    let token = SessionToken.bearer(in: field.value)
                else { return nil }
                tokenHash = SessionToken.hash(token)
            case .contentLength where field.value != "0": return nil
            case .cookie, .expect, .ifMatch, .ifUnmodifiedSince, .csrfToken: return nil
            default: continue
            }
        }
        guard let tokenHash, let (version, format) = try? VersionMiddleware.negotiate(head.headerFields) else { return nil }
        return (EarlyAcknowledgements.Request(tokenHash: tokenHash, announcementID: id, round: round), version, format)
    }

    private static func split(_ target: String) -> (path: Substring, query: String?) {
        guard let mark = target.firstIndex(of: "?") else { return (Substring(target), nil) }
        return (target[..<mark], String(target[target.index(after: mark)...]))
    }
}
