import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository

/// The options every command takes: which server, which API version, which output format,
/// whether to log requests, and which app signs them.
public struct GlobalOptions: ParsableArguments, Sendable {
    /// The server used when neither `--server` nor `INTRANET_SERVER` names one.
    public static let defaultServer = "http://127.0.0.1:8080"

    /// An API version as typed on the command line.
    public enum Version: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// Lists carry bodies; `show` takes the body from the list.
        case v1 = "1.0"
        /// Lists carry titles only; `show` fetches the announcement by id.
        case v2 = "2.0"
        /// As 2.0, with publishing: pinned first, important, drafts and schedules.
        case v3 = "3.0"

        /// The SDK's version.
        public var apiVersion: APIVersion {
            switch self {
            case .v1: .v1_0
            case .v2: .v2_0
            case .v3: .v3_0
            }
        }
    }

    /// An output format.
    public enum Format: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// For people: aligned tables and rendered bodies.
        case table
        /// The server's JSON, unchanged, for scripts and `jq`.
        case json
        /// The server's Spearal answer, through the Spearal printer (implies `--wire spearal`).
        case spearal
    }

    /// A wire format as typed on the command line.
    public enum Wire: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// JSON bodies each way.
        case json
        /// Spearal bodies each way.
        case spearal

        /// The SDK's format.
        public var format: WireFormat { self == .json ? .json : .spearal }
    }

    @Option(help: ArgumentHelp(
        "The intranet server (default: $INTRANET_SERVER, else \(GlobalOptions.defaultServer)).",
        valueName: "url"))
    public var server: String?

    @Option(help: ArgumentHelp(
        "The API version: 1.0 (lists carry bodies), 2.0 (bodies are fetched by id) or 3.0 (the default: 2.0 with publishing).",
        valueName: "version"))
    public var apiVersion: Version = .v3

    @Option(help: ArgumentHelp(
        "table for people, json for scripts (the server's data unchanged), spearal for the server's Spearal answer.",
        valueName: "format"))
    public var output: Format = .table

    @Option(help: ArgumentHelp("The format of bodies each way: json or spearal (default: $INTRANET_WIRE, else json).", valueName: "format"))
    public var wire: Wire?

    /// Where answers come from: the network, this machine's store of earlier answers, or both.
    public enum Cache: String, CaseIterable, ExpressibleByArgument, Sendable {
        case networkFirst = "network-first"
        case storeFirst = "store-first"
        case networkOnly = "network-only"
        case storeOnly = "store-only"
        case off

        /// The SDK's policy; `nil` for no store at all.
        public var policy: StorePolicy? {
            switch self {
            case .networkFirst: .networkFirst
            case .storeFirst: .storeFirst
            case .networkOnly: .networkOnly
            case .storeOnly: .storeOnly
            case .off: nil
            }
        }
    }

    @Option(help: ArgumentHelp(
        "Where answers come from: network-first (the default: earlier answers, kept in $XDG_CACHE_HOME/intranet, are shown only when the server cannot be reached), store-first, network-only, store-only, or off.",
        valueName: "policy"))
    public var cache: Cache?

    @Flag(help: "Answer only from the answers kept on this machine (--cache store-only); exit 69 for something never read here.")
    public var offline = false

    @Flag(name: .shortAndLong, help: "Log each request (method, URL, status, format and bytes each way) to standard error.")
    public var verbose = false

    @Option(help: ArgumentHelp(
        "Sign every request as this registered app (default: $INTRANET_APP_ID); needs --app-secret.",
        valueName: "id"))
    /// The registered app's id, sent as `X-App-Id`.
    public var appId: String?

    @Option(help: ArgumentHelp(
        "The app's secret (default: $INTRANET_APP_SECRET, which keeps it out of the process list).",
        valueName: "secret"))
    /// The registered app's secret, the HMAC key; never printed.
    public var appSecret: String?

    /// Creates the defaults.
    public init() {}

    /// The server's base URL: `--server`, else `INTRANET_SERVER`, else the default.
    ///
    /// - Parameter environment: the process environment.
    /// - Throws: a usage ``TerminalFailure`` when the value is not an http(s) URL with a host.
    public func serverURL(environment: [String: String]) throws -> URL {
        let fromEnvironment = environment["INTRANET_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        let text = server ?? fromEnvironment ?? Self.defaultServer
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw TerminalFailure.usage("the server must be an http:// or https:// URL, not “\(text)”")
        }
        return url
    }

    /// The format bodies travel in: `--wire`, else `INTRANET_WIRE`, else Spearal when the
    /// output is Spearal, else JSON.
    ///
    /// - Parameter environment: the process environment.
    /// - Throws: a usage ``TerminalFailure`` for an unknown `INTRANET_WIRE`, or an output that
    ///   needs the other format (`--output json` prints the server's JSON, `--output spearal`
    ///   its Spearal).
    public func wireFormat(environment: [String: String]) throws -> WireFormat {
        var chosen = wire
        var source = "--wire"
        if chosen == nil, let text = environment["INTRANET_WIRE"], !text.isEmpty {
            guard let fromEnvironment = Wire(rawValue: text.lowercased()) else {
                throw TerminalFailure.usage("INTRANET_WIRE must be json or spearal, not “\(text.prefix(40))”")
            }
            chosen = fromEnvironment
            source = "INTRANET_WIRE"
        }
        switch (output, chosen) {
        case (.json, .spearal?):
            throw TerminalFailure.usage("--output json prints the server's JSON, but \(source) asks for Spearal: use --wire json, or --output spearal")
        case (.spearal, .json?):
            throw TerminalFailure.usage("--output spearal prints the server's Spearal, but \(source) asks for JSON: use --wire spearal, or --output json")
        case (.spearal, nil):
            return .spearal
        default:
            return chosen?.format ?? .json
        }
    }

    /// The key every request is signed with: `--app-id`/`--app-secret`, else
    /// `INTRANET_APP_ID`/`INTRANET_APP_SECRET`; `nil` when neither is given.
    ///
    /// - Parameter environment: the process environment.
    /// - Throws: a usage ``TerminalFailure`` when only one of the two is given (the message
    ///   never contains the secret).
    /// The store policy asked for: `--offline`, `--cache`, or network-first; `nil` for `--cache off`.
    ///
    /// - Throws: a usage failure when `--offline` meets another `--cache`.
    public func storePolicy() throws -> StorePolicy? {
        if offline {
            guard cache == nil || cache == .storeOnly else {
                throw TerminalFailure.usage("--offline answers only from the store; leave out --cache \(cache?.rawValue ?? "")")
            }
            return .storeOnly
        }
        return (cache ?? .networkFirst).policy
    }

    /// Where kept answers live: `$XDG_CACHE_HOME/intranet`, or `~/.cache/intranet` when
    /// `XDG_CACHE_HOME` is unset or not absolute; `nil` when neither it nor `HOME` is set.
    ///
    /// - Parameter environment: the environment to read.
    public static func cacheDirectory(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("intranet", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/intranet", isDirectory: true)
    }

    public func signingKey(environment: [String: String]) throws -> AppSigningKey? {
        func value(_ option: String?, _ variable: String) -> String? {
            (option ?? environment[variable]).flatMap { $0.isEmpty ? nil : $0 }
        }
        let id = value(appId, "INTRANET_APP_ID")
        let secret = value(appSecret, "INTRANET_APP_SECRET")
        switch (id, secret) {
        case (nil, nil):
            return nil
        case let (id?, secret?):
            return AppSigningKey(appID: id, secret: secret)
        default:
            throw TerminalFailure.usage(
                "signing needs both --app-id and --app-secret (or INTRANET_APP_ID and INTRANET_APP_SECRET), or neither")
        }
    }
}
