import CoreMetrics
import IntranetAPI
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// server's own, and written in the Prometheus text format by `GET /metrics`.
///
/// - `http_requests_total{route,method,status,answered}`: every request, `answered` being
///   `application` or `early` (on the event loop: from the cache, or a
///   live stream);
/// - `http_request_duration_seconds{route,method}`: a histogram of the time to answer;
/// - `intranet_cache_lookups_total{cache,result}`: the route cache (`cache="route"`), the
///   early answers (`cache="early"`) and the remembered sessions (`cache="sessions"`), `result`
///   `hit` or `miss`;
/// - `intranet_cache_entries{cache}`, `intranet_cache_bytes{cache}`, their limits
///   `intranet_cache_entries_limit{cache}` and `intranet_cache_bytes_limit{cache}`, and
///   `intranet_cache_evictions_total{cache}` (entries let go to make room), for the answers
///   (`cache="answers"`: route entries and early answers share it) and the sessions;
/// - `intranet_failed_logins_total`, `intranet_active_sessions`;
/// - `intranet_database_pool_connections` (the configured pool, per instance),
///   `intranet_database_pool_in_use` (operations holding or waiting for one of its
///   connections when scraped; above the pool's size, requests queue) and
///   `intranet_database_pool_in_use_peak` (the most at once since start: what to size the
///   pool by);
/// - `intranet_imports_total{result}` (`imported`, `dry_run` or `failed`: a refused file) and
///   `intranet_imported_posts_total{outcome}` (`created`, `updated`, `unchanged`, `withdrawn`)
///   for imports through the API.
///
/// `route` is the route's template (`/announcements/{id}`), never the raw path, so the number
/// of series stays bounded whatever clients send; a path no route serves counts as `unmatched`.
final class ServerMetrics: Sendable {
    /// Where everything is kept; ``exposition()`` writes it.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let requestCounters = Mutex<[RequestKey: CoreMetrics.Counter]>([:])
    private let durationTimers = Mutex<[RouteKey: CoreMetrics.Timer]>([:])
    private let lookups: [LookupKey: CoreMetrics.Counter]
    private let reportedEvictions = Mutex<[String: Int]>([:])
    private let failedLogins: CoreMetrics.Counter
    private let activeSessions: CoreMetrics.Gauge
    private let storedFiles: CoreMetrics.Gauge
    private let storedBytes: CoreMetrics.Gauge
    private let poolConnections: CoreMetrics.Gauge
    private let poolInUse: CoreMetrics.Gauge
    private let poolInUsePeak: CoreMetrics.Gauge
    private let poolUse: PoolUse
    private let importsImported: CoreMetrics.Counter
    private let importsDryRun: CoreMetrics.Counter
    private let importsFailed: CoreMetrics.Counter
    private let importedPosts: [String: CoreMetrics.Counter]

    private struct RequestKey: Hashable {
        var route: String, method: String, status: Int, early: Bool
    }

    /// The caches whose lookups are counted.
    enum LookupCache: String, CaseIterable, Sendable {
        case route, early, sessions
    }

    private struct LookupKey: Hashable {
        var cache: LookupCache, hit: Bool
    }

    private struct RouteKey: Hashable {
        var route: String, method: String
    }

    init(poolSize: Int, poolUse: PoolUse) {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
        ]
        self.factory = factory
        var lookups: [LookupKey: CoreMetrics.Counter] = [:]
        for cache in LookupCache.allCases {
            for hit in [true, false] {
                lookups[LookupKey(cache: cache, hit: hit)] = Counter(
                    label: "intranet_cache_lookups_total", dimensions: [("cache", cache.rawValue), ("result", hit ? "hit" : "miss")],
                    factory: factory)
            }
        }
        self.lookups = lookups
        failedLogins = Counter(label: "intranet_failed_logins_total", factory: factory)
        activeSessions = Gauge(label: "intranet_active_sessions", factory: factory)
        storedFiles = Gauge(label: "intranet_stored_files", factory: factory)
        storedBytes = Gauge(label: "intranet_stored_file_bytes", factory: factory)
        poolConnections = Gauge(label: "intranet_database_pool_connections", factory: factory)
        poolConnections.record(poolSize)
        poolInUse = Gauge(label: "intranet_database_pool_in_use", factory: factory)
        poolInUsePeak = Gauge(label: "intranet_database_pool_in_use_peak", factory: factory)
        self.poolUse = poolUse
        importsImported = Counter(label: "intranet_imports_total", dimensions: [("result", "imported")], factory: factory)
        importsDryRun = Counter(label: "intranet_imports_total", dimensions: [("result", "dry_run")], factory: factory)
        importsFailed = Counter(label: "intranet_imports_total", dimensions: [("result", "failed")], factory: factory)
        importedPosts = Dictionary(uniqueKeysWithValues: ["created", "updated", "unchanged", "withdrawn"].map {
            ($0, Counter(label: "intranet_imported_posts_total", dimensions: [("outcome", $0)], factory: factory))
        })
    }

    /// Counts an answered request and its duration.
    func request(route: String, method: String, status: Int, duration: Duration, early: Bool) {
        let key = RequestKey(route: route, method: method, status: status, early: early)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status)), ("answered", early ? "early" : "application")],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let routeKey = RouteKey(route: route, method: method)
        let timer = durationTimers.withLock { timers in
            if let timer = timers[routeKey] { return timer }
            let timer = Timer(label: "http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            timers[routeKey] = timer
            return timer
        }
        timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + Int64(duration.components.attoseconds / 1_000_000_000))
    }

    /// Counts a lookup of one of the caches.
    func cacheLookup(_ cache: LookupCache, hit: Bool) {
        lookups[LookupKey(cache: cache, hit: hit)]?.increment()
    }

    /// Counts an import through the API: its report, or `nil` for a file refused as malformed.
    func importFinished(_ report: ImportReport?) {
        guard let report else {
            importsFailed.increment()
            return
        }
        (report.dryRun ? importsDryRun : importsImported).increment()
        guard !report.dryRun else { return }
        let outcomes = ["created": report.created, "updated": report.updated, "unchanged": report.unchanged, "withdrawn": report.withdrawn]
        for (outcome, count) in outcomes where count > 0 {
            importedPosts[outcome]?.increment(by: count)
        }
    }

    /// Counts a login refused for a wrong username or password.
    func failedLogin() {
        failedLogins.increment()
    }

    /// The text `GET /metrics` answers, after `sessions` (the count of sessions not expired),
    /// the stored files (attachments' contents, each stored once, with those waiting for the
    /// clean-up), the caches' sizes and the pool's use are recorded.
    func exposition(activeSessions sessions: Int, stored: StoredFiles.Totals? = nil, caches: [CacheReport] = []) -> [UInt8] {
        activeSessions.record(sessions)
        if let stored {
            storedFiles.record(stored.files)
            storedBytes.record(stored.bytes)
        }
        poolInUse.record(poolUse.current)
        poolInUsePeak.record(poolUse.peak)
        for cache in caches {
            let dimensions = [("cache", cache.name)]
            Gauge(label: "intranet_cache_entries", dimensions: dimensions, factory: factory).record(cache.entries)
            Gauge(label: "intranet_cache_bytes", dimensions: dimensions, factory: factory).record(cache.bytes)
            Gauge(label: "intranet_cache_entries_limit", dimensions: dimensions, factory: factory).record(cache.limits.entries)
            Gauge(label: "intranet_cache_bytes_limit", dimensions: dimensions, factory: factory).record(cache.limits.bytes)
            let newEvictions = reportedEvictions.withLock { reported in
                defer { reported[cache.name] = cache.evictions }
                return cache.evictions - (reported[cache.name] ?? 0)
            }
            Counter(label: "intranet_cache_evictions_total", dimensions: dimensions, factory: factory).increment(by: newEvictions)
        }
        return registry.emitToBuffer()
    }
}
