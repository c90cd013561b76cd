import Hummingbird

/// Adds the middleware and every route over `dependencies`, and names routes for the exchange
/// recorder.
///
/// One router serves the API. The web front end's pages share some of its paths
/// (`/announcements/{id}` is a page for a browser, JSON or Spearal for an API client), so they
/// are a responder of their own that ``WebMiddleware`` chooses by one documented rule and wraps
/// in the pages' error boundary; everything else reaches the API's routes.
///
/// - Returns: the router; the API's routes (for tests: every route is in the OpenAPI document,
///   every write route reaches the change pipeline); and the exchange recorder naming routes as
///   the router does, for the early answers to record theirs alike.
func buildRouter(
    _ dependencies: ServerDependencies
) -> (router: Router<AppRequestContext>, routes: [RouteBook<AppRequestContext>.Route], recorder: ExchangeRecorder) {
    let configuration = dependencies.configuration
    var serviceRoutes = RouteBook<AppRequestContext>()
    var service = ServiceController(repository: dependencies.announcements)
    if let token = configuration.metricsToken, let metrics = dependencies.metrics {
        let sessionCounter = FluentAccountRepository(database: dependencies.database.database)
        let now = configuration.now
        let (cache, sessions) = (dependencies.cache, dependencies.accounts)
        let database = dependencies.database.database
        service.metricsRoute = .init(
            token: token, metrics: metrics, activeSessions: { try await sessionCounter.countActiveSessions(now: now()) },
            storedFiles: { try await StoredFiles.totals(on: database) }, caches: { [cache.report, sessions.report] })
    }
    service.addRoutes(to: &serviceRoutes)

    var apiRoutes = RouteBook<AppRequestContext>()
    let limit = configuration.maxBodySize
    AnnouncementController(
        repository: dependencies.announcements, cache: dependencies.cache, sanitizer: dependencies.sanitizer, maxBodySize: limit,
        now: dependencies.configuration.now, acknowledgements: dependencies.acknowledgements, opens: dependencies.opens)
        .addRoutes(to: &apiRoutes)
    let acknowledgements = AcknowledgementController(
        repository: dependencies.announcements, cache: dependencies.cache, store: dependencies.acknowledgements,
        reporter: ReachReporter(
            database: dependencies.database.database, opens: dependencies.opens, changes: dependencies.changes, now: configuration.now),
        now: configuration.now)
    acknowledgements.addRoutes(to: &apiRoutes)
    AttachmentController(repository: dependencies.announcements, cache: dependencies.cache, store: dependencies.attachments)
        .addRoutes(to: &apiRoutes)
    // The reach report negotiates its own format (CSV besides the API's): outside the versioned group.
    var reachRoutes = RouteBook<AppRequestContext>()
    acknowledgements.addReachRoutes(to: &reachRoutes)
    SessionController(auth: dependencies.auth, people: dependencies.people, maxBodySize: limit).addRoutes(to: &apiRoutes)
    UserController(accounts: dependencies.accounts, hasher: dependencies.hasher, maxBodySize: limit).addRoutes(to: &apiRoutes)
    PersonController(repository: dependencies.people, cache: dependencies.cache, maxBodySize: limit).addRoutes(to: &apiRoutes)
    let search = SearchController(
        announcements: dependencies.announcements,
        people: PeopleFinder(index: dependencies.peopleSearch, people: dependencies.people, database: dependencies.database.database),
        cache: dependencies.cache)
    search.addRoutes(to: &apiRoutes)
    ImportController(
        importer: WordPressImporter(database: dependencies.database.database, changes: dependencies.changes, sanitizer: dependencies.sanitizer),
        metrics: dependencies.metrics, limit: configuration.importMaxBytes, board: ImportProgressBoard(now: configuration.now)
    ).addRoutes(to: &apiRoutes)

    // The live stream and the Atom feeds have formats of their own (text/event-stream,
    // application/atom+xml; the feed token's answer has one shape): outside the versioned group.
    var eventRoutes = RouteBook<AppRequestContext>()
    EventController(hub: dependencies.events).addRoutes(to: &eventRoutes)
    FeedController(
        repository: dependencies.announcements, cache: dependencies.cache,
        tokens: FeedTokens(database: dependencies.database.database, now: configuration.now), accounts: dependencies.accounts,
        sanitizer: dependencies.sanitizer, allowsAnonymousReading: configuration.allowsAnonymousReading
    ).addRoutes(to: &eventRoutes)

    // Attached files' bytes have their own types: outside the versioned group.
    var fileRoutes = RouteBook<AppRequestContext>()
    AttachmentFileController(
        repository: dependencies.announcements, cache: dependencies.cache, database: dependencies.database.database,
        blobs: dependencies.attachments.blobs
    ).addRoutes(to: &fileRoutes)

    var webRoutes = RouteBook<AppRequestContext>()
    let web = WebController(
        repository: dependencies.announcements, people: dependencies.people, accounts: dependencies.accounts, auth: dependencies.auth,
        hasher: dependencies.hasher, cache: dependencies.cache, templates: dependencies.templates, sanitizer: dependencies.sanitizer,
        maxBodySize: limit, secureCookies: configuration.secureCookies, search: search, timeZone: configuration.timeZone,
        now: configuration.now, acknowledging: acknowledgements, opens: dependencies.opens, attachments: dependencies.attachments)
    web.addRoutes(to: &webRoutes)
    let pages = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    webRoutes.register(on: pages)

    // Routes are named by their template wherever an exchange is recorded: the API's first,
    // then the pages'.
    let books = [serviceRoutes, apiRoutes, reachRoutes, eventRoutes, fileRoutes]
    let named = books + [webRoutes]
    var recorder = dependencies.recorder
    recorder.route = { path in named.lazy.compactMap { $0.template(servingRequestPath: path) }.first ?? "unmatched" }

    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ProblemMiddleware(maxBodySize: limit, recorder: recorder))
    router.add(middleware: WebMiddleware(
        web: webRoutes, api: books, responder: pages.buildResponder(), templates: dependencies.templates,
        repository: dependencies.announcements, identity: { try await web.identity($0) },
        contentSecurityPolicy: WebMiddleware.contentSecurityPolicy(embedHosts: configuration.embedHosts), maxBodySize: limit))
    router.add(middleware: UnservedMethodMiddleware(books: books))
    if configuration.requiresSignature {
        router.add(middleware: SignatureMiddleware(
            registry: SigningAppRegistry(database: dependencies.database.database), maxBodySize: limit,
            importMaxBytes: configuration.importMaxBytes))
    }
    router.add(middleware: AuthMiddleware(auth: dependencies.auth, allowsAnonymousReading: configuration.allowsAnonymousReading))
    serviceRoutes.register(on: router)
    reachRoutes.register(on: router)
    eventRoutes.register(on: router)
    fileRoutes.register(on: router)
    apiRoutes.register(on: router.group().add(middleware: VersionMiddleware(maxBodySize: limit)))
    return (router, serviceRoutes.routes + apiRoutes.routes + reachRoutes.routes + eventRoutes.routes + fileRoutes.routes, recorder)
}
