import Foundation
import Logging
import SQLKit
import Testing
@testable import IntranetServer

/// The databases the contract suites run on: SQLite always, PostgreSQL too when
/// `INTRANET_TEST_POSTGRES_URL` is set (CI sets it).
enum TestStorage: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["INTRANET_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the test PostgreSQL runs on this machine and this process may signal its
    /// backends (CI runs as root beside its own cluster).
    static var postgresIsOnThisMachine: Bool {
        guard let url = postgresURL, let host = URLComponents(string: url)?.host else { return false }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) && getuid() == 0
    }

    static var all: [TestStorage] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }
}

/// Lets a bounded number of tests use PostgreSQL at once: Swift Testing starts every test
/// together, and each server holds a few connections (pool, change feed), so without a bound a
/// full run exceeds the cluster's `max_connections`.
actor PostgresGate {
    static let shared = PostgresGate(permits: 24)

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { available = permits }

    /// Runs `body` holding one permit.
    nonisolated func withPermit<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// A PostgreSQL schema of its own for one test, dropped afterwards, so runs never see each
/// other's rows.
enum PostgresSchema {
    static func create() async throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE SCHEMA \(name)")
        return name
    }

    static func drop(_ name: String) async throws {
        try await execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
    }

    static func execute(_ statement: String) async throws {
        guard let url = TestStorage.postgresURL else { return }
        let service = try DatabaseService(storage: .postgres(url: url), poolSize: 1, logger: Logger(label: "test-schema"))
        do {
            let sql = try #require(service.database as? any SQLDatabase)
            try await sql.raw(SQLQueryString(statement)).run()
        } catch {
            await service.close()
            throw error
        }
        await service.close()
    }
}

/// A database of its own for a test that runs the server binary: an SQLite file in the test's
/// directory, or a fresh PostgreSQL database on the test cluster.
struct ScratchDatabase: Sendable {
    /// What `DATABASE_URL` should say.
    var url: String
    private var postgresName: String?

    static func make(_ storage: TestStorage, in directory: URL) async throws -> ScratchDatabase {
        switch storage {
        case .sqlite:
            return ScratchDatabase(url: "sqlite:" + directory.appendingPathComponent("scratch.sqlite").path)
        case .postgres:
            let base = try #require(TestStorage.postgresURL)
            var components = try #require(URLComponents(string: base))
            let name = "scratch_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await PostgresSchema.execute("CREATE DATABASE \(name)")
            components.path = "/" + name
            return ScratchDatabase(url: try #require(components.string), postgresName: name)
        }
    }

    /// Drops the PostgreSQL database, cutting any connection still open to it.
    func drop() async {
        guard let postgresName else { return }
        try? await PostgresSchema.execute("DROP DATABASE IF EXISTS \(postgresName) WITH (FORCE)")
    }
}
