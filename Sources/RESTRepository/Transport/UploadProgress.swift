import Foundation

/// How much of a request body has been sent, for the requests a task sends while an observer
/// is bound:
///
/// ```swift
/// let report = try await UploadProgress.$observer.withValue({ sent, total in print(sent, "of", total) }) {
///     try await client.imports.wordPress(export: data)
/// }
/// ```
///
/// ``URLSessionTransport`` reports as the bytes leave (a few times per megabyte); other
/// transports may report nothing. The observer is called on a thread of the transport's.
public enum UploadProgress {
    /// Called with the bytes of the body sent so far and the body's size.
    @TaskLocal public static var observer: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)?

    /// Seconds an observed upload, or one sent from a file, may go without a byte from the
    /// server (the transport's own time-out when `nil`): long enough for an answer the server
    /// works on after the body arrives, such as an import.
    @TaskLocal public static var idleTimeout: TimeInterval?
}
