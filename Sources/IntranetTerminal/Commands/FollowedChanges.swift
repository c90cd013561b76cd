import Foundation
import IntranetClient
import RESTRepository

/// What `intranet announcements --follow` prints after the list: a line per change of an
/// announcement, with its title read again, as the live stream reports them.
struct FollowedChanges: Sendable {
    private let changes: AsyncThrowingStream<LiveChange, any Error>

    /// Starts listening at once (the changes wait until ``print(to:)``).
    init(_ source: LiveChanges) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LiveChange.self)
        let task = Task {
            do {
                for try await change in source { continuation.yield(change) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        changes = stream
    }

    /// Prints each change until interrupted or the session ends:
    /// `14:03:07  new      #12  Office closed today`.
    func print(to session: CommandSession) async throws {
        await session.io.writeError("Following changes; Ctrl-C to stop.\n")
        var titles: [Int: String] = [:]
        try await session.perform("the live stream") {
            for try await change in changes {
                guard let line = await line(for: change, session: session, titles: &titles) else { continue }
                await session.writeLines([line])
            }
        }
    }

    private func line(for change: LiveChange, session: CommandSession, titles: inout [Int: String]) async -> String? {
        let time = LocalTime.clock(Date())
        switch change.kind {
        case .personChanged:
            return nil
        case .reset:
            return "\(time)  many changes at once: list again to see them"
        case .announcementDeleted:
            let id = change.id ?? 0
            return "\(time)  removed  #\(id)" + (titles[id].map { "  \($0)" } ?? "")
        case .announcementCreated, .announcementChanged:
            let id = change.id ?? 0
            let label = change.kind == .announcementCreated ? "new    " : "changed"
            guard let announcement = try? await session.announcements.read(id: id) else {
                return "\(time)  \(label)  #\(id)"
            }
            titles[id] = announcement.title
            return "\(time)  \(label)  #\(id)  \(announcement.title)"
        }
    }
}
