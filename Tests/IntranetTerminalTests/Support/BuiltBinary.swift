import ChildProcess
import Dispatch
import Foundation

/// The built `intranet` executable, beside the test bundle in the build products directory.
enum BuiltBinary {
    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "the intranet binary is not built beside the tests (run swift build first)" }
    }

    static func url() throws -> URL {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [products, products.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("intranet")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw NotBuilt()
    }

    /// Runs the binary to completion with `arguments` and `input` on standard input (a pipe,
    /// not a terminal), without `INTRANET_SERVER` and with `COLUMNS` 80, in `directory` (the
    /// tests' own by default).
    ///
    /// The blocking waits run on Dispatch threads: the server under test answers on the
    /// cooperative pool, which has as few threads as the machine has cores.
    static func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:], directory: URL? = nil
    ) async throws -> RunResult {
        let executable = try url()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try runBlocking(executable, arguments, input, environment, directory))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(
        _ executable: URL, _ arguments: [String], _ input: Data, _ environment: [String: String], _ directory: URL?
    ) throws -> RunResult {
        var variables = ProcessInfo.processInfo.environment
        variables["INTRANET_SERVER"] = nil
        variables["COLUMNS"] = "80"
        // Each run keeps its answers apart from every other test's (servers on reused ports
        // would otherwise revalidate another test's answers); tests of the store pass their own.
        let ownCache = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-cache-\(UUID().uuidString)")
        variables["XDG_CACHE_HOME"] = ownCache.path
        defer { try? FileManager.default.removeItem(at: ownCache) }
        let child = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: variables.merging(environment) { _, new in new }, directory: directory, input: true, separateErrors: true)
        if let stdin = child.standardInput {
            stdin.write(input)
            try stdin.close()
        }
        // Drain stderr beside stdout, so a full pipe never blocks the child.
        let errors = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: errors) {
            errorData = child.standardError?.readDataToEndOfFile() ?? Data()
        }
        let outputData = child.standardOutput.readDataToEndOfFile()
        errors.wait()
        return RunResult(
            status: child.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }
}
