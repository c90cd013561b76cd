import Foundation
import Hummingbird
import HTTPTypes
import IntranetAPI
import Logging
import NIOCore
import NIOHTTPTypes

/// Serves live streams (`GET /events`) on the connection's event loop, without the application:
/// an open stream then costs its connection and a few words, not a request in flight through
/// Hummingbird (its request, context, logger and the task memory its answer needed).
///
/// Sits in each connection's pipeline before ``PublicAnswerHandler``. A request is streamed
/// here only when nothing else is asked of the application first, as ``EventController`` would
/// stream it: a `GET` of `/events` without a body, asking for `text/event-stream` by name, with
/// a `Last-Event-ID` of at most 64 bytes, signed out where anonymous reading is allowed, or with
/// a bearer token or the web session's cookie whose session
/// ``SessionRememberingAccountRepository`` remembers without the database; and not after a
/// request that asked to close the connection. Every other request goes on to the application, which answers all of
/// them — a `HEAD`, a refusal, an unknown token — as before. Answers leave in request order: a
/// stream starts only when every earlier request of the connection has been answered.
///
/// The head and messages are those of the application's streams; the queue's messages are
/// written while the socket takes them (the queue's limit then cuts a client that reads too
/// slowly, as for the application's streams; one that still takes nothing
/// ``slowClientGrace`` after its queue ended is cut off). A stream ends as they do — its session ended, the client
/// too slow, the server shutting down (the quiesce event, which would otherwise close the
/// connection at once, ends the stream with its `closing` message first) — and then the
/// connection closes, as the head says (`Connection: close`): requests a client pipelined after
/// a stream are not answered. A client that goes away (or half-closes: the server cannot tell)
/// frees its stream at once. If opening the stream fails (the change log cannot be read), the
/// request goes on to the application, which answers with the error.
final class EventStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Where the connection's stream stands.
    private enum Phase {
        /// No stream: requests go on to the application.
        case none
        /// Opening (the hub reads where the log stands); the request waits to go on to the
        /// application should that fail.
        case opening(Opening)
        case streaming(EventHub.Subscription)
        /// Ended: the last parts are written and the connection closes.
        case ended
    }

    /// What arrived while a stream was opening.
    private struct Opening {
        let request: HTTPRequest
        /// The request's `.end` arrived (it is made up, never, for the application).
        var isRequestEnded = false
        /// Parts after the request arrived (pipelined requests): dropped, so the connection
        /// must close after the application's answer if the stream does not open.
        var droppedParts = false
        /// The server began shutting down.
        var shutdownAsked = false
    }

    /// How long a client whose queue ended for reading too slowly may still take nothing before
    /// its connection is closed.
    static let slowClientGrace = TimeAmount.seconds(10)

    private let hub: EventHub
    private let sessions: SessionRememberingAccountRepository?
    private let allowsAnonymousReading: Bool
    private let now: @Sendable () -> Date
    private let recorder: ExchangeRecorder
    private let debugLogger: Logger?
    private var phase = Phase.none
    /// Requests passed to the application whose answers have not ended.
    private var answering = 0
    /// A request passed on asked to close the connection after its answer.
    private var isClosing = false
    /// Closes a connection whose client stopped reading after its stream ended.
    private var slowClientCutOff: Scheduled<Void>?

    init(
        hub: EventHub, sessions: SessionRememberingAccountRepository?, allowsAnonymousReading: Bool,
        now: @escaping @Sendable () -> Date = { Date() }, recorder: ExchangeRecorder = ExchangeRecorder(), logger: Logger
    ) {
        self.hub = hub
        self.sessions = sessions
        self.allowsAnonymousReading = allowsAnonymousReading
        self.now = now
        self.recorder = recorder
        self.debugLogger = logger.logLevel <= .debug ? logger : nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch phase {
        case .none:
            break
        case .opening(var opening):
            // The request's own end is remembered; anything after it is dropped.
            if case .end = part, !opening.isRequestEnded, !opening.droppedParts {
                opening.isRequestEnded = true
            } else {
                opening.droppedParts = true
            }
            phase = .opening(opening)
            return
        case .streaming, .ended:
            return  // a stream's connection reads nothing more
        }
        if case .head(let request) = part {
            if answering == 0, !isClosing, context.channel.isWritable, let viewer = viewer(for: request) {
                open(request, for: viewer, context: context)
                return
            }
            answering += 1
            isClosing = isClosing || PublicAnswerKey.asksToClose(request)
        }
        context.fireChannelRead(data)
    }

    /// A request that cannot be read while a stream is open or opening (a client sending
    /// garbage after it) closes the connection: nothing may be written into the stream's body.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard case .none = phase else {
            context.close(promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // (Never below zero: a malformed request is answered by the server without its head
        // passing here, and the connection then closes.)
        if case .end = unwrapOutboundIn(data) { answering = max(answering - 1, 0) }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { drain(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .streaming(let subscription) = phase { end(subscription) }
        phase = .ended
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch phase {
        case .none:
            context.fireUserInboundEventTriggered(event)
        case .opening(var opening):
            opening.shutdownAsked = true
            phase = .opening(opening)
        case .streaming(let subscription):
            subscription.queue.close(with: .shutdown)
        case .ended:
            break
        }
    }

    // MARK: The stream

    /// Who reads the stream `request` asks for, when it is to be streamed here.
    private func viewer(for request: HTTPRequest) -> EventHub.Viewer? {
        guard request.method == .get, let target = request.path,
            target.prefix(while: { $0 != "?" }) == EventController.path,
            EventController.asks(request.headerFields) == .stream,
            // No body: nothing but its end follows the head.
            (request.headerFields[.contentLength] ?? "0") == "0", request.headerFields[.transferEncoding] == nil,
            request.headerFields[values: .lastEventID].count <= 1,
            (request.headerFields[.lastEventID]?.utf8.count ?? 0) <= 64
        else { return nil }
        let token: String
        let authorizations = request.headerFields[values: .authorization]
        if let authorization = authorizations.first {
            guard authorizations.count == 1, let bearer = SessionToken.bearer(in: authorization) else { return nil }
            token = bearer
        } else if let cookie = Cookies(from: request.headerFields[values: .cookie])[WebCookies.session]?.value {
            guard !cookie.isEmpty else { return nil }  // the application refuses it
            token = cookie
        } else {
            return allowsAnonymousReading ? EventHub.Viewer(user: nil, token: nil) : nil
        }
        guard let remembered = sessions?.rememberedSession(tokenHash: SessionToken.hash(token), now: now()) else { return nil }
        return EventHub.Viewer(user: remembered.session.user.api, token: token)
    }

    private func open(_ request: HTTPRequest, for viewer: EventHub.Viewer, context: ChannelHandlerContext) {
        phase = .opening(Opening(request: request))
        let start = ContinuousClock.now
        let lastEventID = request.headerFields[.lastEventID]
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let hub = self.hub
        Task {
            let opened: Result<EventHub.Subscription, any Error>
            do {
                opened = .success(try await hub.open(for: viewer, lastEventID: lastEventID))
            } catch {
                opened = .failure(error)
            }
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.opened(opened, for: request, user: viewer.user, since: start, context: context)
            }
        }
    }

    private func opened(
        _ opened: Result<EventHub.Subscription, any Error>, for request: HTTPRequest, user: User?, since start: ContinuousClock.Instant,
        context: ChannelHandlerContext
    ) {
        guard case .opening(let opening) = phase else {
            // The client went away meanwhile.
            if case .success(let subscription) = opened { hub.close(subscription) }
            return
        }
        guard case .success(let subscription) = opened else {
            // The application answers, with the error it meets; if requests pipelined behind
            // this one were dropped, it closes the connection after that answer.
            phase = .none
            answering += 1
            var request = request
            if opening.droppedParts {
                request.headerFields[.connection] = "close"
                isClosing = true
            }
            context.fireChannelRead(wrapInboundOut(.head(request)))
            if opening.isRequestEnded { context.fireChannelRead(wrapInboundOut(.end(nil))) }
            context.fireChannelReadComplete()
            if opening.shutdownAsked { context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
            return
        }
        phase = .streaming(subscription)
        var head = HTTPResponse(status: .ok, headerFields: EventController.streamHeaders(adding: 3))
        head.headerFields[.connection] = "close"
        var dates = HTTPDateClock()
        var requestIDs = RequestIdentifiers()
        let id = RequestIdentifiers.proxied(request.headerFields[.requestID]) ?? requestIDs.next()
        head.headerFields[.requestID] = id
        head.headerFields[.date] = dates.now()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if recorder.isRecording || debugLogger != nil {
            recorder.record(
                AccessLog.Entry(
                    time: Date(), requestID: id, method: request.method.rawValue, target: request.path ?? EventController.path,
                    status: 200, bytes: nil, duration: ContinuousClock.now - start, userID: user?.id, early: true),
                logger: debugLogger)
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        subscription.queue.onArrival {
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.drain(context: context)
            }
        }
        if opening.shutdownAsked { subscription.queue.close(with: .shutdown) }
        drain(context: context)
    }

    /// Forgets the stream: the hub no longer hands it anything, and the queue no longer calls.
    private func end(_ subscription: EventHub.Subscription) {
        hub.close(subscription)
        subscription.queue.stopArrivals()
        slowClientCutOff?.cancel()
        slowClientCutOff = nil
    }

    /// Writes what waits while the socket takes it; after the last message, ends the answer
    /// and closes the connection.
    private func drain(context: ChannelHandlerContext) {
        guard case .streaming(let subscription) = phase else { return }
        var wrote = false
        defer { if wrote { context.flush() } }
        while context.channel.isWritable {
            switch subscription.queue.take() {
            case .message(let message):
                context.write(wrapOutboundOut(.body(message)), promise: nil)
                wrote = true
            case .nothing:
                return
            case .finished:
                phase = .ended
                end(subscription)
                wrote = false
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
                return
            }
        }
        // The socket takes nothing more: a client whose queue already ended (too slow) gets a
        // last while to read, then is cut off.
        if subscription.queue.reason != nil, slowClientCutOff == nil {
            slowClientCutOff = context.eventLoop.assumeIsolated().scheduleTask(in: Self.slowClientGrace) {
                context.close(promise: nil)
            }
        }
    }
}
