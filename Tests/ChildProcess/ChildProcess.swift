import Foundation

/// Starts child processes for the test targets, one at a time across the whole test bundle.
///
/// Foundation on Linux has crashed (SIGSEGV, copying the environment) when two threads called
/// `Process.run()` at the same moment; the server tests and the terminal tests both start
/// binaries, so the lock must be one for both, which is why it lives in its own module.
public enum ChildProcess {
    private static let lock = NSLock()

    /// Runs `process` while no other test starts one.
    public static func start(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
