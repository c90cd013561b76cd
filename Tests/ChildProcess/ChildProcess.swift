import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process of the tests, started with `posix_spawn` and reaped with `waitpid`.
///
/// Not Foundation's `Process`: on Linux its `run()` crashed the whole test bundle (SIGSEGV in
/// a `memcpy` inside `Process.run()`, seen in CI and reproduced locally about one full run in
/// three) while other tests' children were starting and ending, even with every `run()` behind
/// one lock. This type has no run loop, no manager thread and no shared state: each child is
/// one `pid`, reaped only here.
public final class ChildProcess: @unchecked Sendable {
    /// A failure to start the child, with the call that failed and its `errno`.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The writing end of the child's standard input, when one was asked for.
    public let standardInput: FileHandle?
    /// The reading end of the child's standard output (and of its standard error, unless
    /// ``standardError`` is separate).
    public let standardOutput: FileHandle
    /// The reading end of the child's standard error, when asked for separately.
    public let standardError: FileHandle?

    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `executable` with `arguments` and exactly `environment`, in `directory`.
    ///
    /// Standard input is a pipe when `input` is true and `/dev/null` otherwise; standard
    /// error joins standard output unless `separateErrors`. The child inherits no other
    /// descriptor, no blocked signals and no ignored `SIGPIPE`, `SIGTERM` or `SIGINT`.
    public init(
        executable: URL, arguments: [String], environment: [String: String], directory: URL? = nil,
        input: Bool = false, separateErrors: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        let output = try Self.pipe()
        let errors = separateErrors ? try Self.pipe() : nil
        let stdin = input ? try Self.pipe() : nil
        // Our ends close in the parent once the child has its copies (or on failure).
        var parentCopies = [output.write]
        if let errors { parentCopies.append(errors.write) }
        if let stdin { parentCopies.append(stdin.read) }
        defer { parentCopies.forEach { close($0) } }

        try Self.check(
            stdin.map { posix_spawn_file_actions_adddup2(&actions, $0.read, 0) }
                ?? posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            "standard input")
        try Self.check(posix_spawn_file_actions_adddup2(&actions, output.write, 1), "standard output")
        try Self.check(posix_spawn_file_actions_adddup2(&actions, (errors ?? output).write, 2), "standard error")
        try Self.check(cspawn_addclosefrom(&actions, 3), "closing other descriptors")
        if let directory {
            try Self.check(cspawn_addchdir(&actions, directory.path), "working directory")
        }

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(output.read)
            if let errors { close(errors.read) }
            if let stdin { close(stdin.write) }
            throw StartFailure(description: "posix_spawn \(executable.path): errno \(result)")
        }
        processIdentifier = pid
        standardOutput = FileHandle(fileDescriptor: output.read, closeOnDealloc: true)
        standardError = errors.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
        standardInput = stdin.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) }
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw StartFailure(description: "posix_spawn file action for \(what): errno \(result)") }
    }

    /// A pipe whose both ends close on exec (the child gets only the `dup2` copies).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard cspawn_cloexec_pipe(&ends) == 0 else { throw StartFailure(description: "pipe2: errno \(errno)") }
        return (ends[0], ends[1])
    }

    /// Reaps the child if it has ended; true while it runs.
    public var isRunning: Bool {
        lock.withLock {
            if waitStatus != nil { return false }
            var status: Int32 = 0
            let reaped = waitpid(processIdentifier, &status, WNOHANG)
            if reaped == processIdentifier { waitStatus = status }
            return waitStatus == nil && reaped == 0
        }
    }

    /// Blocks the calling thread until the child has ended (polling, so that other threads
    /// may ask ``isRunning`` meanwhile).
    public func waitUntilExit() {
        while isRunning { usleep(5_000) }
    }

    /// The exit code, or the number of the signal that ended the child; waits for the end.
    public var terminationStatus: Int32 {
        waitUntilExit()
        let status = lock.withLock { waitStatus ?? 0 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Sends `SIGTERM`.
    public func terminate() {
        kill(processIdentifier, SIGTERM)
    }
}
