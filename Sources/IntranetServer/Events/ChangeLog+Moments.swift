import FluentKit
import Foundation
import IntranetAPI

extension ChangeLog {
    /// Records the entries the clock made between `since` and `now` — publications, expiries
    /// and ends of pins — each once, whichever instance notices it first (keyed by kind,
    /// announcement and moment).
    static func recordMoments(after since: Date, through now: Date, on database: any Database) async throws {
        // A second of overlap: a moment noticed by another instance first is kept once anyway.
        let from = since.addingTimeInterval(-1)
        let published = AnnouncementStatus.published.rawValue
        let publications = try await AnnouncementModel.query(on: database)
            .filter(\.$status == published).filter(\.$publishAt > from).filter(\.$publishAt <= now).all()
        let expiries = try await AnnouncementModel.query(on: database)
            .filter(\.$status == published).filter(\.$expiresAt > from).filter(\.$expiresAt <= now).all()
        let pinEnds = try await AnnouncementModel.query(on: database)
            .filter(\.$pinned == true).filter(\.$pinnedUntil > from).filter(\.$pinnedUntil <= now).all()
        let moments: [(models: [AnnouncementModel], name: String, moment: @Sendable (StoredAnnouncement) -> Date?)] = [
            (publications, "published", { $0.publishing.publishAt }),
            (expiries, "expired", { $0.publishing.expiresAt }),
            (pinEnds, "unpinned", { $0.publishing.pinnedUntil }),
        ]
        for (models, name, moment) in moments {
            for announcement in try await FluentAnnouncementRepository.stored(models, on: database) {
                guard let moment = moment(announcement) else { continue }
                // An expiry takes readers away: who could read it just before says who is told.
                let isExpiry = name == "expired"
                let entry = ChangeLogEntry(
                    id: 0, kind: name == "published" ? .published : .changed, subject: announcement.id, at: moment,
                    former: isExpiry ? FormerReaders(announcement, at: moment.addingTimeInterval(-0.001)) : nil, isScheduled: true)
                let key = "\(name):\(announcement.id):\(Int64((moment.timeIntervalSince1970 * 1000).rounded()))"
                try await ChangeLog.appendScheduled(entry, key: key, on: database)
            }
        }
    }
}
