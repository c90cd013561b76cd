/// The exit status of `intranet`, one per kind of failure, so scripts can tell them apart.
///
/// The numbers follow BSD `sysexits.h` where one fits; 64 is also ArgumentParser's code for
/// a usage error.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done.
    case success = 0
    /// Any other failure: a server error, an answer that could not be read.
    case failure = 1
    /// Bad or missing arguments, or a refused confirmation without a terminal.
    case usage = 64
    /// The server rejected the input; each field's message is shown.
    case validation = 65
    /// The announcement (or user) does not exist.
    case notFound = 66
    /// The server could not be reached.
    case unreachable = 69
    /// It changed on the server since it was read (or conflicts with its state); nothing
    /// was saved.
    case conflict = 75
    /// The server wants a sign-in or a request signature, or refuses this user.
    case unauthorized = 77

    /// One line per status, for `--help`.
    public static var helpText: String {
        """
        EXIT STATUS
          0   success
          1   other failure (server error, unreadable answer, deletion declined)
          64  usage error: bad or missing arguments; delete without a terminal or --yes
          65  validation: the server rejected the input (each field's message is shown)
          66  not found: no announcement with that id, no user with that name
          69  the server cannot be reached (with --offline: never read on this machine)
          75  conflict: it changed since it was read; nothing was saved
          77  unauthorized: sign-in needed, not allowed, or unsigned (app signing)
        """
    }
}
