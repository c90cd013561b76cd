import Foundation
import HTTPTypes
import IntranetAPI
import Logging
import NIOCore
import NIOHTTPTypes

/// Answers repeated signed-out reads on the connection's event loop, from the public answers
/// the application gave before, without entering the application.
///
/// Sits in each connection's pipeline between the HTTP codec and the application. A request with
/// a ``PublicAnswerKey`` whose answer is held is answered here with the held head and body, a
/// fresh `Date` and an `X-Request-Id` (a proxy's, when it sent a plain one, as the application
/// does), and logged at debug level and in the access log like the application's answers
/// (`early=true`). Every other request goes on
/// to the application; when such a request has a key and the application's answer qualifies as a
/// ``PublicAnswer``, the answer is kept for the next caller, under the same generation rule as
/// ``ResponseCache``'s own entries, so an answer read before a write is never kept after it.
///
/// Answers leave in request order: a request is answered here only when no earlier request of
/// the connection is still being answered by the application. Backpressure holds: a request is
/// answered here only while the socket takes writes; otherwise it goes to the application, whose
/// writer waits and stops reading. After a request asking to close the connection, nothing more
/// is answered here.
///
/// The application's middleware never sees the requests answered here, nor does Hummingbird's
/// connection handler: with an idle timeout configured, a connection busy only with early
/// answers would count as idle.
///
/// Signed-in reads are answered here too, from the answer kept for the caller's view (what they
/// may see, shared with every caller who may see the same: ``ResponseCache/view(for:)``), only
/// while ``SessionRememberingAccountRepository`` remembers that token's session without needing
/// the database (the rule the application applies): a logout, an expiry, a role change or a
/// deleted user sends the request back to the application, which answers it afresh. An answer
/// the application gave a signed-in caller is kept for their view only when no change of
/// accounts came between the request and the answer.
///
/// A browser's signed-in page (session cookie) is kept once per view and role as the
/// ``PersonalPage`` the application offers the cache, with the head of the answer, and filled in
/// here for each caller: their name, the CSRF token derived from their session, their own tag
/// (a `304` when `If-None-Match` holds it). The bytes the application sent one person are never
/// kept for another.
///
/// Install it only where a read needs nothing but its target, headers and session: not when
/// requests must be signed. On PostgreSQL the cache gives out nothing while the change feed does
/// not vouch for it (``ResponseCache/trust``).
final class PublicAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// A request passed to the application, whose answer may be kept (a class: the queue of
    /// them then takes a word a place, and every open connection keeps that queue).
    private final class Recording {
        /// The key the answer is kept under (a signed-in caller's with their view).
        let key: PublicAnswerKey
        /// For a signed-in request, its token's hash and the session remembered when it arrived:
        /// the answer is kept only if the application used that very lookup of the session (so
        /// the same user in the same role as the view was made for).
        let session: (tokenHash: String, remembered: SessionRememberingAccountRepository.Remembered)?
        /// The data the answer is read from.
        let domains: ChangeDomains
        let generation: ResponseCache.Generation
        var head: HTTPResponse?
        var body: ByteBuffer?

        init(
            key: PublicAnswerKey, session: (tokenHash: String, remembered: SessionRememberingAccountRepository.Remembered)?,
            domains: ChangeDomains, generation: ResponseCache.Generation
        ) {
            self.key = key
            self.session = session
            self.domains = domains
            self.generation = generation
        }
    }

    private let cache: ResponseCache
    /// The sessions the application remembers; without them, signed-in reads go to it.
    private let sessions: SessionRememberingAccountRepository?
    /// The clock sessions expire by (the application's).
    private let now: @Sendable () -> Date
    /// Logs each answer given here, when debug logging is on.
    private let debugLogger: Logger?
    /// Records each answer given here, as the application records its own.
    private let recorder: ExchangeRecorder
    /// One element per request passed to the application and not yet fully answered, oldest
    /// first; `nil` for a request whose answer is not to be kept. Room for two to begin with (it
    /// grows when a client pipelines more): every open connection keeps it, a live stream for
    /// hours, and NIO's default of 16 places of the struct this was took 5 KB.
    private var awaitingAnswers = CircularBuffer<Recording?>(initialCapacity: 2)
    /// The rest of a request answered here (its `.end`) is not passed on.
    private var isDroppingRequestParts = false
    /// A request passed on asked to close the connection: the application closes it after that
    /// answer, so no later request may be answered here.
    private var isClosing = false
    private var stamps = EarlyAnswerStamps()
    /// Where a signed-in reader's open of an announcement answered here is counted, as the
    /// application counts the ones it answers.
    private let opens: OpenCounter?

    init(
        cache: ResponseCache, sessions: SessionRememberingAccountRepository? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, recorder: ExchangeRecorder = ExchangeRecorder(), opens: OpenCounter? = nil,
        logger: Logger
    ) {
        self.recorder = recorder
        self.opens = opens
        self.cache = cache
        self.sessions = sessions
        self.now = now
        self.debugLogger = logger.logLevel <= .debug ? logger : nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            isDroppingRequestParts = false
            isClosing = isClosing || PublicAnswerKey.asksToClose(request)
            guard let key = PublicAnswerKey(request) else {
                awaitingAnswers.append(nil)
                break
            }
            var user: User?
            var session: (tokenHash: String, remembered: SessionRememberingAccountRepository.Remembered)?
            if let tokenHash = key.tokenHash {
                // A session the application would have to look up: it answers.
                guard let remembered = sessions?.rememberedSession(tokenHash: tokenHash, now: now()) else {
                    awaitingAnswers.append(nil)
                    break
                }
                user = remembered.session.user.api
                session = (tokenHash, remembered)
            }
            let mayAnswer = awaitingAnswers.isEmpty && !isClosing && context.channel.isWritable
            let (answer, keptKey, generation) = cache.earlyAnswer(for: key, user: user, lookingUp: mayAnswer)
            guard let keptKey else {
                // A view the application reads first, or an answer not worth keeping.
                awaitingAnswers.append(nil)
                break
            }
            if let answer, answer.page == nil || key.sessionCookie != nil {
                isDroppingRequestParts = true
                send(answer, for: key, to: request, user: user, context: context)
                return
            }
            awaitingAnswers.append(Recording(key: keptKey, session: session, domains: keptKey.domains, generation: generation))
        case .body, .end:
            if isDroppingRequestParts { return }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        record(unwrapOutboundIn(data))
        context.write(data, promise: promise)
    }

    /// Follows the application's answer to the oldest request it is answering. An answer that
    /// cannot be kept is let go at its head, or as soon as its body grows too large.
    private func record(_ part: HTTPResponsePart) {
        guard !awaitingAnswers.isEmpty else { return }
        let oldest = awaitingAnswers.startIndex
        switch part {
        case .head(let head) where head.status.kind == .informational:
            return
        case .head(let head):
            if let recording = awaitingAnswers[oldest], PublicAnswer.mayKeep(head, signedIn: recording.key.view != nil) {
                awaitingAnswers[oldest]?.head = head
            } else {
                awaitingAnswers[oldest] = nil
            }
        case .body(let chunk):
            // A page's body is one person's: what is kept is the page the application offered.
            guard let recording = awaitingAnswers[oldest], !recording.key.isPage else { return }
            if recording.body == nil {
                recording.body = chunk
            } else {
                recording.body!.writeImmutableBuffer(chunk)
            }
            if recording.body!.readableBytes > PublicAnswer.maxBodySize {
                awaitingAnswers[oldest] = nil
            }
        case .end:
            guard let recording = awaitingAnswers.removeFirst(), let head = recording.head else { return }
            if let session = recording.session,
                sessions?.rememberedSession(tokenHash: session.tokenHash, now: now()) != session.remembered
            {
                return  // the application looked the session up afresh: perhaps another role
            }
            if recording.key.isPage {
                cache.storePersonalAnswer(head: head, for: recording.key, ifStillAt: recording.generation)
            } else if let answer = PublicAnswer(head: head, body: recording.body ?? ByteBuffer(), signedIn: recording.key.view != nil) {
                cache.storePublicAnswer(answer, for: recording.key, dependsOn: recording.domains, ifStillAt: recording.generation)
            }
        }
    }

    private func send(
        _ answer: PublicAnswer, for key: PublicAnswerKey, to request: HTTPRequest, user: User?, context: ChannelHandlerContext
    ) {
        let start = recorder.isRecording || debugLogger != nil ? ContinuousClock.now : nil
        var (head, body) = (answer.head, answer.body)
        if let user, let token = key.sessionCookie,
            let page = answer.personalized(name: user.displayName, csrf: WebCookies.csrfToken(forSession: token), ifNoneMatch: key.ifNoneMatch)
        {
            (head, body) = page
        }
        if let user, let opens, head.status == .ok || head.status == .notModified,
            let announcement = OpenCounter.announcementID(inTarget: key.target)
        {
            opens.noteOpen(of: announcement, by: user.id)
        }
        let id = stamps.stamp(&head, requestID: request.headerFields[.requestID])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        if let start {
            recorder.record(
                AccessLog.Entry(
                    time: Date(), requestID: id, method: request.method.rawValue, target: request.path ?? key.target, status: Int(head.status.code),
                    bytes: body.readableBytes, duration: ContinuousClock.now - start, userID: user?.id, early: true),
                logger: debugLogger)
        }
    }
}
