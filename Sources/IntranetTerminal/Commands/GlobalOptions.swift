import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient

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

        /// The SDK's version.
        public var apiVersion: APIVersion { self == .v1 ? .v1_0 : .v2_0 }
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
        "The API version: 1.0 (lists carry bodies) or 2.0 (bodies are fetched by id).",
        valueName: "version"))
    public var apiVersion: Version = .v2

    @Option(help: ArgumentHelp(
        "table for people, json for scripts (the server's data unchanged), spearal for the server's Spearal answer.",
        valueName: "format"))
    public var output: Format = .table

    @Option(help: ArgumentHelp("The format of bodies each way: json or spearal (default: $INTRANET_WIRE, else json).", valueName: "format"))
    public var wire: Wire?

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
