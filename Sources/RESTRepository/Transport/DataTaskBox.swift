import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Holds a running task (data, upload or download) so a task-cancellation handler, which may
/// run on any thread and even before the task exists, can cancel it.
///
/// `@unchecked Sendable`: every access to the stored state goes through `lock`.
final class DataTaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var isCancelled = false

    /// Starts the task, or cancels it at once when cancellation already happened.
    func start(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        task.resume()
        if cancelled {
            task.cancel()
        }
    }

    /// Cancels the task now, or as soon as it starts.
    func cancel() {
        lock.lock()
        isCancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
