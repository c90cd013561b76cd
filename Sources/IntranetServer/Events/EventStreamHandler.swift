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
/// stream it: a `GET` of `/events` asking for `text/event-stream` by name, with a `Last-Event-ID`
/// of at most 64 bytes, signed out where anonymous reading is allowed, or with a bearer token or
/// the web session's cookie whose session ``SessionRememberingAccountRepository`` remembers
/// without the database. Every other request goes on to the application, which answers all of
/// them — a `HEAD`, a refusal, an unknown token — as before. Answers leave in request order: a
/// stream starts only when every earlier request of the connection has been answered.
///
/// The head and messages are those of the application's streams; the queue's messages are
/// written while the socket takes them (the queue's limit then cuts a client that reads too
/// slowly, as for the application's streams). A stream ends as they do — its session ended,
/// the client too slow, the server shutting down (the quiesce event, which would otherwise close
/// the connection at once, ends the stream with its `closing` message first) — and then the
/// connection closes: requests a client pipelined after a stream are not answered. A client that
/// goes away frees its stream at once. If opening the stream fails (the change log cannot be
/// read), the request goes on to the application, which answers with the error.
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
        case opening(HTTPRequest, shutdownAsked: Bool)
        case streaming(EventHub.Subscription)
        /// Ended: the last parts are written and the connection closes.
        case ended
    }

    private let hub: EventHub
    private let sessions: SessionRememberingAccountRepository?
    private let allowsAnonymousReading: Bool
    private let now: @Sendable () -> Date
    private let recorder: ExchangeRecorder
    private let debugLogger: Logger?
    private var phase = Phase.none
    /// Requests passed to the application whose answers have not ended.
    private var answering = 0

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
        guard case .none = phase else { return }  // a stream's connection reads nothing more
        if case .head(let request) = unwrapInboundIn(data) {
            if answering == 0, context.channel.isWritable, let viewer = viewer(for: request) {
                open(request, for: viewer, context: context)
                return
            }
            answering += 1
        }
        context.fireChannelRead(data)
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
        if case .streaming(let subscription) = phase { hub.close(subscription) }
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
        case .opening(let request, _):
            phase = .opening(request, shutdownAsked: true)
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
            request.headerFields[values: .lastEventID].count <= 1,
            (request.headerFields[.lastEventID]?.utf8.count ?? 0) <= 64
        else { return nil }
        let token: String
        let authorizations = request.headerFields[values: .authorization]
        if let authorization = authorizations.first {
            guard authorizations.count == 1, let bearer = SessionToken.bearer(in: authorization) else { return nil }
            token = bearer
        } else if let cookie = Cookies(from: request.headerFields[values: .cookie])[WebCookies.session]?.value, !cookie.isEmpty {
            token = cookie
        } else {
            return allowsAnonymousReading ? EventHub.Viewer(user: nil, token: nil) : nil
        }
        guard let remembered = sessions?.rememberedSession(tokenHash: SessionToken.hash(token), now: now()) else { return nil }
        return EventHub.Viewer(user: remembered.session.user.api, token: token)
    }

    private func open(_ request: HTTPRequest, for viewer: EventHub.Viewer, context: ChannelHandlerContext) {
        phase = .opening(request, shutdownAsked: false)
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
        guard case .opening(_, let shutdownAsked) = phase else {
            // The client went away meanwhile.
            if case .success(let subscription) = opened { hub.close(subscription) }
            return
        }
        guard case .success(let subscription) = opened else {
            // The application answers, with the error it meets.
            phase = .none
            answering += 1
            context.fireChannelRead(wrapInboundOut(.head(request)))
            context.fireChannelRead(wrapInboundOut(.end(nil)))
            return
        }
        phase = .streaming(subscription)
        var head = HTTPResponse(status: .ok, headerFields: EventController.streamHeaders())
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
        if shutdownAsked { subscription.queue.close(with: .shutdown) }
        drain(context: context)
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
                hub.close(subscription)
                wrote = false
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
                return
            }
        }
    }
}
