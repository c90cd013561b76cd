import Foundation
import HTTPTypes
import IntranetAPI
import NIOConcurrencyHelpers
import NIOCore
import Testing
@testable import IntranetServer

@Suite("Which requests and answers may be public answers")
struct PublicAnswerRuleTests {
    static func request(_ fields: HTTPFields = [:], target: String = "/announcements", method: HTTPRequest.Method = .get) -> HTTPRequest {
        HTTPRequest(method: method, scheme: nil, authority: "x", path: target, headerFields: fields)
    }

    static func answer(status: HTTPResponse.Status = .ok, _ fields: HTTPFields) -> HTTPResponse {
        HTTPResponse(status: status, headerFields: fields)
    }

    @Test("an item's key leaves out the query parameters its answer never reads; a list's keeps its query whole")
    func canonicalTargets() {
        let cases: [(String, String)] = [
            ("/announcements/2?utm_source=newsletter&utm_medium=mail", "/announcements/2"),
            ("/announcements/2?_=1700000000&fields=title&x", "/announcements/2?fields=title"),
            ("/announcements/2?%66ields=title&x=1", "/announcements/2?%66ields=title"),
            ("/announcements/2?fields=id&fields=title", "/announcements/2?fields=id&fields=title"),
            ("/announcements/2?", "/announcements/2"),
            ("/people/7?expand=manager&utm_source=x&fields=name", "/people/7?expand=manager&fields=name"),
            ("/announcements?utm_source=x", "/announcements?utm_source=x"),
            ("/announcements/new?x=1", "/announcements/new?x=1"),
            ("/announcements/2/edit?x=1", "/announcements/2/edit?x=1"),
            ("/people/7/chain?x=1", "/people/7/chain?x=1"),
            ("/?q=x", "/?q=x"),
        ]
        for (target, canonical) in cases {
            #expect(PublicAnswerKey.canonicalTarget(target) == canonical, "\(target)")
        }
    }

    @Test("a plain signed-out GET has a key made of its target, Accept and Accept-Version")
    func keyOfAPlainRead() throws {
        let plain = try #require(PublicAnswerKey(Self.request([.accept: "application/json;v=1.0", .userAgent: "curl"], target: "/announcements?max=2")))
        let twoAccepts = try #require(PublicAnswerKey(Self.request(HTTPFields([
            HTTPField(name: .accept, value: "text/html"), HTTPField(name: .accept, value: "application/json"),
        ]), target: "/announcements?max=2")))

        #expect(plain.target == "/announcements?max=2")
        #expect(plain.accept == "application/json;v=1.0")
        #expect(plain.acceptVersion == nil)
        #expect(twoAccepts.accept == "text/html,application/json")
        #expect(PublicAnswerKey(Self.request([.acceptVersion: "1.0"])) != PublicAnswerKey(Self.request([.acceptVersion: "2.0"])))
        #expect(PublicAnswerKey(Self.request([.accept: ""])) != PublicAnswerKey(Self.request()))
        #expect(PublicAnswerKey(Self.request([.connection: "keep-alive"])) == PublicAnswerKey(Self.request()))
        let revalidating = PublicAnswerKey(Self.request([.ifNoneMatch: "\"2.1.v2\""]))
        #expect(revalidating?.ifNoneMatch == "\"2.1.v2\"")
        #expect(revalidating != PublicAnswerKey(Self.request()))
        #expect(revalidating != PublicAnswerKey(Self.request([.ifNoneMatch: "\"2.2.v2\""])))
        #expect(PublicAnswerKey(Self.request([.ifNoneMatch: String(repeating: "x", count: 513)])) == nil)
    }

    @Test("requests with credentials other than one bearer token, conditional beyond If-None-Match, partial, carrying a body or cache directives, or closing the connection have no key",
          arguments: [
            [.authorization: "Basic dTpw"], [.authorization: "Bearer "], [.cookie: "a=b"], [.ifMatch: "*"],
            [.ifModifiedSince: "Sun, 22 Nov 2026 03:42:11 GMT"], [.ifUnmodifiedSince: "Sun, 22 Nov 2026 03:42:11 GMT"],
            [.ifRange: "\"x\""], [.range: "bytes=0-9"], [.cacheControl: "no-cache"], [HTTPField.Name("Pragma")!: "no-cache"],
            [.transferEncoding: "chunked"], [.contentLength: "3"], [.expect: "100-continue"], [.connection: "Close"],
            [.acceptVersion: String(repeating: "9", count: 513)],
          ] as [HTTPFields])
    func noKey(fields: HTTPFields) {
        #expect(PublicAnswerKey(Self.request(fields)) == nil)
        #expect(PublicAnswerKey(Self.request([.contentLength: "0"])) != nil)
    }

    @Test("a bearer token is part of the key as its hash: tokens never share a key, spellings of one token do")
    func bearerKeys() throws {
        let one = try #require(PublicAnswerKey(Self.request([.authorization: "Bearer token-one"])))
        let same = try #require(PublicAnswerKey(Self.request([.authorization: "bearer  token-one "])))
        let other = try #require(PublicAnswerKey(Self.request([.authorization: "Bearer token-two"])))
        let signedOut = try #require(PublicAnswerKey(Self.request()))

        #expect(one.tokenHash == SessionToken.hash("token-one"))
        #expect(one == same)
        #expect(one != other && one != signedOut)
        #expect(signedOut.tokenHash == nil)
        var twice = HTTPFields()
        twice.append(HTTPField(name: .authorization, value: "Bearer token-one"))
        twice.append(HTTPField(name: .authorization, value: "Bearer token-two"))
        #expect(PublicAnswerKey(Self.request(twice)) == nil)
    }

    @Test("a signed-in caller's answer is kept only when private; a public one only when public")
    func privateAnswers() {
        let privateHead = Self.answer([.cacheControl: "private, no-cache", .vary: "Accept, Accept-Version"])
        let publicHead = Self.answer([.cacheControl: "public, no-cache"])

        #expect(PublicAnswer(head: privateHead, body: ByteBuffer(), signedIn: true) != nil)
        #expect(PublicAnswer(head: publicHead, body: ByteBuffer(), signedIn: true) == nil)
        #expect(PublicAnswer(head: privateHead, body: ByteBuffer()) == nil)
        #expect(PublicAnswer(head: Self.answer([.cacheControl: "private, no-store"]), body: ByteBuffer(), signedIn: true) == nil)
        #expect(PublicAnswer(head: Self.answer([.cacheControl: "private", .vary: "Authorization"]), body: ByteBuffer(), signedIn: true) == nil)
    }

    @Test("only GET has a key, and only for targets up to 2,048 bytes")
    func methodsAndTargets() {
        for method in [HTTPRequest.Method.head, .post, .put, .patch, .delete, .options] {
            #expect(PublicAnswerKey(Self.request(method: method)) == nil)
        }
        #expect(PublicAnswerKey(Self.request(target: "/announcements?q=" + String(repeating: "a", count: 2_048 - 17))) != nil)
        #expect(PublicAnswerKey(Self.request(target: "/announcements?q=" + String(repeating: "a", count: 2_048 - 16))) == nil)
    }

    @Test("a public 200 or 304 varying on Accept and Accept-Version is kept without its Date and X-Request-Id")
    func keptAnswer() throws {
        let head = Self.answer([
            .contentType: "application/json", .eTag: "\"2.1.v2\"", .vary: "Accept, Accept-Version", .cacheControl: "public, no-cache",
            .contentLength: "2", .requestID: "abc", .date: "Sun, 22 Nov 2026 03:42:11 GMT",
        ])
        let answer = try #require(PublicAnswer(head: head, body: ByteBuffer(string: "{}")))

        #expect(answer.head.headerFields.map(\.name.canonicalName) == ["content-type", "etag", "vary", "cache-control", "content-length"])
        #expect(String(buffer: answer.body) == "{}")
        #expect(PublicAnswer(head: Self.answer([.cacheControl: "no-cache, PUBLIC"]), body: ByteBuffer()) != nil)
        #expect(PublicAnswer(head: Self.answer(status: .notModified, [.cacheControl: "public, no-cache"]), body: ByteBuffer()) != nil)
    }

    @Test("answers that are not 200 or 304, not marked public, personal, varying on other headers, setting cookies or over 1 MiB are not kept",
          arguments: [
            (.notFound, [.cacheControl: "public"], 0),
            (.ok, [:], 0),
            (.ok, [.cacheControl: "no-cache"], 0),
            (.ok, [.cacheControl: "private, no-cache"], 0),
            (.ok, [.cacheControl: "public, no-store"], 0),
            (.ok, [.cacheControl: "public, private"], 0),
            (.ok, [.cacheControl: "public", .vary: "Accept, Authorization"], 0),
            (.ok, [.cacheControl: "public", .vary: "*"], 0),
            (.ok, [.cacheControl: "public", .setCookie: "a=b"], 0),
            (.ok, [.cacheControl: "public"], PublicAnswer.maxBodySize + 1),
          ] as [(HTTPResponse.Status, HTTPFields, Int)])
    func notKept(status: HTTPResponse.Status, fields: HTTPFields, bodySize: Int) {
        let body = ByteBuffer(repeating: UInt8(ascii: "a"), count: bodySize)
        #expect(PublicAnswer(head: Self.answer(status: status, fields), body: body) == nil)
    }

    @Test("Date values are RFC 9110 IMF-fixdates in UTC", arguments: [
        Int64(0), 784_111_777, 951_782_400, 1_709_210_096, 1_795_318_931, 4_107_542_399, -1,
    ])
    func httpDate(seconds: Int64) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))

        #expect(HTTPDateClock.format(secondsSince1970: seconds) == expected)
        #expect(HTTPDateClock.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("request ids are 32 hex digits, unique per connection and across connections")
    func requestIDs() {
        var first = RequestIdentifiers()
        var second = RequestIdentifiers()
        let ids = (0..<1_000).map { _ in first.next() } + (0..<1_000).map { _ in second.next() }

        #expect(Set(ids).count == 2_000)
        #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(RequestIdentifiers.proxied("lb-1_a") == "lb-1_a")
        #expect(RequestIdentifiers.proxied(String(repeating: "a", count: 65)) == nil)
        #expect(RequestIdentifiers.proxied("a b") == nil)
        #expect(RequestIdentifiers.proxied("") == nil)
    }
}

@Suite("The response cache's limits and history")
struct ResponseCacheTests {
    static let key = PublicAnswerKey(PublicAnswerRuleTests.request())!

    static func answer(bytes: Int) -> PublicAnswer {
        PublicAnswer(head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "public"]), body: ByteBuffer(repeating: 0, count: bytes))!
    }

    static func entry(bytes: Int) -> CachedResponse {
        CachedResponse(body: ByteBuffer(repeating: 0, count: bytes), etag: "\"e\"", headers: [:])
    }

    /// A cache fed by its own pipeline.
    static func cache(entries: Int = 2_000, bytes: Int = 64 << 20, trust: ChangeTrust = .always()) -> (ResponseCache, ChangePipeline) {
        let changes = ChangePipeline(trust: trust)
        return (ResponseCache(limits: CacheLimits(entries: entries, bytes: bytes), changes: changes), changes)
    }

    @Test("a cache fed by the change feed gives out nothing unless trusted, and trust runs out by itself")
    func trustGatesTheCache() async throws {
        let trust = ChangeTrust.fed()
        let (cache, _) = Self.cache(trust: trust)
        let (_, generation) = cache.publicAnswer(for: Self.key)
        cache.storePublicAnswer(Self.answer(bytes: 10), for: Self.key, dependsOn: .announcements, ifStillAt: generation)

        #expect(cache.publicAnswer(for: Self.key).answer == nil)
        trust.extend(until: .now() + .milliseconds(300))
        #expect(cache.publicAnswer(for: Self.key).answer != nil)
        trust.extend(until: .now() + .milliseconds(1))  // never shortens
        #expect(cache.publicAnswer(for: Self.key).answer != nil)
        try await Task.sleep(for: .milliseconds(400))
        #expect(cache.publicAnswer(for: Self.key).answer == nil)
        trust.extend(until: .now() + .seconds(60))
        trust.revoke()
        #expect(cache.publicAnswer(for: Self.key).answer == nil)
    }

    @Test("readers named in the same restricted announcements share a view; a failed read of the grants is not given to the next request")
    func readerViews() async throws {
        struct Unreachable: Error {}
        let calls = NIOLockedValueBox(0)
        let changes = ChangePipeline()
        let cache = ResponseCache(changes: changes, grants: {
            let call = calls.withLockedValue { $0 += 1; return $0 }
            if call == 1 { throw Unreachable() }
            return ReaderGrants(announcementsByReader: [3: [5, 9], 4: [9, 5], 6: [9]])
        })
        let reader = { (id: Int) in User(id: id, username: "u\(id)", displayName: "U", role: .reader) }
        await #expect(throws: Unreachable.self) { try await cache.view(for: reader(3)) }
        let three = try await cache.view(for: reader(3))
        let four = try await cache.view(for: reader(4))
        let six = try await cache.view(for: reader(6))
        let seven = try await cache.view(for: reader(7))
        #expect(three.key == four.key && three.key != six.key && seven.key == "r")
        #expect(three.visibility == .granted([5, 9]) && seven.visibility == .granted([]))
        #expect(try await cache.view(for: User(id: 2, username: "e", displayName: "E", role: .editor)).key == "all")
        #expect(calls.withLockedValue { $0 } == 2)  // read once for all after the failure
        changes.committed(Change(domains: .announcements))
        _ = try await cache.view(for: reader(3))
        #expect(calls.withLockedValue { $0 } == 3)  // and again after a change of announcements
    }

    @Test("a signed-in read is kept per view on the announcement and people paths only: any other path may be personal")
    func personalPathsNeverShared() throws {
        let (cache, _) = Self.cache()
        let reader = User(id: 3, username: "reader", displayName: "Reader", role: .reader)
        let token: HTTPFields = [.authorization: "Bearer some-token"]
        let me = try #require(PublicAnswerKey(PublicAnswerRuleTests.request(token, target: "/users/me")))
        let list = try #require(PublicAnswerKey(PublicAnswerRuleTests.request(token, target: "/announcements")))
        #expect(cache.earlyAnswer(for: me, user: reader).key == nil)
        #expect(cache.earlyAnswer(for: list, user: reader).key?.view == "u3")
        #expect(cache.earlyAnswer(for: list, user: reader).key?.tokenHash == nil)
    }

    @Test("a browser's key: its session cookie signs it in (other cookies beside it change nothing); cookies without a session, or with a bearer token, give no key")
    func keysOfPages() throws {
        let session = "\(WebCookies.session)=the-token"
        let page = try #require(PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: session, .accept: "text/html", .ifNoneMatch: "\"t\""], target: "/")))
        #expect(page.isPage && page.sessionCookie == "the-token" && page.tokenHash == SessionToken.hash("the-token"))
        let kept = page.forView(PublicAnswerKey.pageView("r", role: .reader))
        #expect(kept.sessionCookie == nil && kept.tokenHash == nil && kept.ifNoneMatch == nil, "a page's key holds no token and no person's tag")
        let withOthers = try #require(PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: "theme=dark; \(session)", .accept: "text/html"], target: "/")))
        #expect(withOthers.forView("v") == PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: session, .accept: "text/html"], target: "/"))!.forView("v"))
        #expect(PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: "\(WebCookies.csrf)=abc"], target: "/")) == nil)
        #expect(PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: "\(WebCookies.session)="], target: "/")) == nil)
        #expect(PublicAnswerKey(PublicAnswerRuleTests.request([.cookie: session, .authorization: "Bearer other"], target: "/")) == nil)
        #expect(PublicAnswerKey.pageView("all", role: .editor) != PublicAnswerKey.pageView("all", role: .admin))
    }

    @Test("a page is kept only as the application offered it for that view and role, and only while nothing it read changed")
    func pagesKeptAsOffered() throws {
        let (cache, changes) = Self.cache()
        let reader = User(id: 3, username: "reader", displayName: "Reader", role: .reader)
        let request = PublicAnswerRuleTests.request([.cookie: "\(WebCookies.session)=the-token", .accept: "text/html"], target: "/")
        let key = try #require(PublicAnswerKey(request))
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/html; charset=utf-8", .cacheControl: "private, no-cache", .vary: "Accept, Cookie"])
        let page = PersonalPage(rendered: "<p>\(PersonalPage.Slot.name.marker)</p>")
        // Not offered: nothing kept.
        var found = cache.earlyAnswer(for: key, user: reader)
        let keptKey = try #require(found.key)
        cache.storePersonalAnswer(head: head, for: keptKey, ifStillAt: found.generation)
        #expect(cache.earlyAnswer(for: key, user: reader).answer == nil)
        // Offered for another role: not this key's.
        cache.offer(page, dependsOn: .announcements, readAt: found.generation, for: request, view: "u3", role: .editor)
        cache.storePersonalAnswer(head: head, for: keptKey, ifStillAt: found.generation)
        #expect(cache.earlyAnswer(for: key, user: reader).answer == nil)
        // Offered, then a write to what the page read: not kept.
        found = cache.earlyAnswer(for: key, user: reader)
        cache.offer(page, dependsOn: .announcements, readAt: found.generation, for: request, view: "u3", role: .reader)
        changes.receive(.announcements)
        cache.storePersonalAnswer(head: head, for: keptKey, ifStillAt: found.generation)
        #expect(cache.earlyAnswer(for: key, user: reader).answer == nil)
        // A page read before a write, offered after it for a request that came after it (an
        // older request's page, late): not kept.
        let before = cache.generation
        changes.receive(.announcements)
        found = cache.earlyAnswer(for: key, user: reader)
        cache.offer(page, dependsOn: .announcements, readAt: before, for: request, view: "u3", role: .reader)
        cache.storePersonalAnswer(head: head, for: keptKey, ifStillAt: found.generation)
        #expect(cache.earlyAnswer(for: key, user: reader).answer == nil)
        // An offer waiting when its data changes goes with the change; one of other data stays.
        found = cache.earlyAnswer(for: key, user: reader)
        cache.offer(page, dependsOn: .announcements, readAt: found.generation, for: request, view: "u3", role: .reader)
        #expect(cache.offeredPageCount == 1)
        changes.receive(.people)
        #expect(cache.offeredPageCount == 1)
        changes.receive(.announcements)
        #expect(cache.offeredPageCount == 0)
        // Offered and nothing changed: kept, and filled per person.
        found = cache.earlyAnswer(for: key, user: reader)
        cache.offer(page, dependsOn: .announcements, readAt: found.generation, for: request, view: "u3", role: .reader)
        cache.storePersonalAnswer(head: head, for: keptKey, ifStillAt: found.generation)
        let answer = try #require(cache.earlyAnswer(for: key, user: reader).answer)
        let filled = try #require(answer.personalized(name: "Zoë <b>", csrf: "c", ifNoneMatch: nil))
        #expect(String(buffer: filled.body) == "<p>Zoë &lt;b&gt;</p>")
        #expect(filled.head.headerFields[.contentLength] == String(filled.body.readableBytes))
    }

    @Test("while the cache is full, an answer asked for the first time is not kept; asked again, it is")
    func admissionWhenFull() throws {
        let (cache, _) = Self.cache(entries: 3)
        for index in 0..<3 {
            let key = try #require(PublicAnswerKey(PublicAnswerRuleTests.request(target: "/announcements/\(index)")))
            let found = cache.earlyAnswer(for: key, user: nil)
            cache.storePublicAnswer(Self.answer(bytes: 10), for: try #require(found.key), dependsOn: .announcements, ifStillAt: found.generation)
        }
        #expect(cache.count == 3)
        let crawled = try #require(PublicAnswerKey(PublicAnswerRuleTests.request(target: "/announcements?x=1")))
        #expect(cache.earlyAnswer(for: crawled, user: nil).key == nil, "first sighting: not worth keeping")
        #expect(cache.earlyAnswer(for: crawled, user: nil).key == crawled, "asked again: kept")
    }

    @Test("a public answer read before a write to its domain is not kept after it; a write to another domain does not stop it")
    func staleAnswerRefused() {
        let (cache, changes) = Self.cache()
        let (_, before) = cache.publicAnswer(for: Self.key)
        changes.receive(.announcements)
        cache.storePublicAnswer(Self.answer(bytes: 10), for: Self.key, dependsOn: .announcements, ifStillAt: before)
        #expect(cache.publicAnswer(for: Self.key).answer == nil)

        let (_, again) = cache.publicAnswer(for: Self.key)
        changes.receive([.people, .accounts])
        cache.storePublicAnswer(Self.answer(bytes: 10), for: Self.key, dependsOn: .announcements, ifStillAt: again)
        #expect(cache.publicAnswer(for: Self.key).answer != nil)
        #expect(cache.publicAnswerHits == 1)
    }

    @Test("a reader's answer whose view key was made before a move in the org chart is not kept under it; a signed-out answer is")
    func signedInAnswerRefusedAfterPeopleChange() throws {
        let (cache, changes) = Self.cache()
        let reader = User(id: 3, username: "reader", displayName: "Reader", role: .reader)
        let found = cache.earlyAnswer(for: Self.key, user: reader)
        let key = try #require(found.key)
        // A move (someone's department or manager) while the request was in the application:
        // the answer was built for the reader's new view, the key names the old one.
        changes.receive(.people)
        cache.storePublicAnswer(Self.answer(bytes: 10), for: key, dependsOn: .announcements, ifStillAt: found.generation)
        #expect(cache.earlyAnswer(for: Self.key, user: reader).answer == nil)

        let (_, before) = cache.publicAnswer(for: Self.key)
        changes.receive(.people)
        cache.storePublicAnswer(Self.answer(bytes: 10), for: Self.key, dependsOn: .announcements, ifStillAt: before)
        #expect(cache.publicAnswer(for: Self.key).answer != nil, "signed out, the view does not follow people")
    }

    @Test("a change drops the public answers and the routes' entries of its domains, and only those")
    func changeDropsItsDomains() {
        let (cache, changes) = Self.cache()
        cache.store(Self.entry(bytes: 5), for: "announcements", dependsOn: .announcements, ifStillAt: cache.generation)
        cache.store(Self.entry(bytes: 5), for: "people", dependsOn: .people, ifStillAt: cache.generation)
        cache.store(Self.entry(bytes: 5), for: "signed-in people", dependsOn: [.people, .accounts], ifStillAt: cache.generation)
        cache.storePublicAnswer(Self.answer(bytes: 5), for: Self.key, dependsOn: .announcements, ifStillAt: cache.generation)
        #expect(cache.count == 4)

        changes.receive(.accounts)
        #expect(cache.lookup("signed-in people").entry == nil)
        #expect(cache.count == 3)
        changes.receive(.announcements)
        #expect(cache.publicAnswer(for: Self.key).answer == nil)
        #expect(cache.lookup("announcements").entry == nil)
        #expect(cache.lookup("people").entry != nil)
        changes.receive(.people)
        #expect(cache.count == 0)
    }

    @Test("the cache holds at most its limits in entries and bytes, keeps the hot answer through a burst of unique keys, and never keeps an entry over the byte limit")
    func bounded() {
        let (cache, _) = Self.cache(entries: 100, bytes: 100 * 1_024)
        cache.store(Self.entry(bytes: 500), for: "hot", dependsOn: .announcements, ifStillAt: cache.generation)
        _ = cache.lookup("hot")
        for index in 0..<5_000 {
            cache.store(Self.entry(bytes: 500), for: "crawler?\(index)", dependsOn: .announcements, ifStillAt: cache.generation)
            if index % 50 == 0 { #expect(cache.lookup("hot").entry != nil, "the hot answer was let go at \(index)") }
            #expect(cache.count <= 100)
            #expect(cache.report.bytes <= 100 * 1_024)
        }
        cache.storePublicAnswer(Self.answer(bytes: 10), for: Self.key, dependsOn: .announcements, ifStillAt: cache.generation)
        #expect(cache.lookup("hot").entry != nil)
        #expect(cache.report.evictions > 4_000)

        cache.store(Self.entry(bytes: 100 * 1_024 + 1), for: "huge", dependsOn: .announcements, ifStillAt: cache.generation)
        #expect(cache.lookup("huge").entry == nil)
        #expect(cache.lookup("hot").entry != nil)
    }
}

extension ResponseCacheTests {
    @Test("storing an entry again replaces it without counting it twice")
    func replacing() {
        let (cache, _) = Self.cache(entries: 10, bytes: 10_000)
        for _ in 0..<10 {
            cache.store(Self.entry(bytes: 40), for: "a", dependsOn: .announcements, ifStillAt: cache.generation)
            cache.storePublicAnswer(Self.answer(bytes: 40), for: Self.key, dependsOn: .announcements, ifStillAt: cache.generation)
        }
        #expect(cache.count == 2)
        let bytes = cache.report.bytes
        cache.store(Self.entry(bytes: 60), for: "a", dependsOn: .announcements, ifStillAt: cache.generation)
        #expect(cache.count == 2)
        #expect(cache.report.bytes == bytes + 20)
        #expect(cache.report.evictions == 0)
    }
}
