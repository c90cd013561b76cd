import FluentKit
import Foundation
import NIOConcurrencyHelpers

/// Registered apps and the signatures already seen, in the database so that every server
/// instance shares them.
struct SigningAppRegistry: Sendable {
    let database: any Database
    private let lastPrune = NIOLockedValueBox(Date.distantPast)

    init(database: any Database) {
        self.database = database
    }

    /// Registers an app; its id and secret are returned once and the secret never shown again.
    func register(name: String) async throws -> (appID: String, secret: String) {
        let appID = "app_" + Self.randomHex(byteCount: 12)
        let secret = Self.randomHex(byteCount: 32)
        try await SigningAppModel(appID: appID, name: name, secret: secret, createdAt: Date()).create(on: database)
        return (appID, secret)
    }

    /// The secret of a registered app, or `nil`.
    func secret(forApp appID: String) async throws -> String? {
        try await SigningAppModel.query(on: database).filter(\.$appID == appID).first()?.secret
    }

    /// Records a signature as used until `expiresAt`.
    ///
    /// - Returns: `false` when it was used before (a replay).
    func recordUse(of signature: String, until expiresAt: Date, now: Date) async throws -> Bool {
        try await pruneIfDue(now: now)
        if try await UsedSignatureModel.query(on: database).filter(\.$signature == signature).count() > 0 {
            return false
        }
        do {
            try await UsedSignatureModel(signature: signature, expiresAt: expiresAt).create(on: database)
            return true
        } catch {
            // Another instance stored the same signature a moment ago: the unique index refused it.
            if try await UsedSignatureModel.query(on: database).filter(\.$signature == signature).count() > 0 {
                return false
            }
            throw error
        }
    }

    /// Forgets signatures too old to be accepted anyway, at most once a minute per instance.
    private func pruneIfDue(now: Date) async throws {
        let isDue = lastPrune.withLockedValue { last in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
        if isDue {
            try await UsedSignatureModel.query(on: database).filter(\.$expiresAt < now).delete()
        }
    }

    private static func randomHex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.hexString
    }
}
