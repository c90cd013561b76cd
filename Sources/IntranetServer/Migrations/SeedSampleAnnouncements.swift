import FluentKit
import Foundation

/// Inserts the six sample announcements, once per database: Fluent records that this migration
/// ran, so a restart never seeds again, even after the announcements are deleted.
struct SeedSampleAnnouncements: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard try await AnnouncementModel.query(on: database).count() == 0 else { return }
        let start = FluentAnnouncementRepository.millisecondPrecision(Date())
        for (index, entry) in SeedAnnouncements.all.enumerated() {
            // One millisecond apart, so sorting by creation time gives the insertion order.
            let createdAt = start.addingTimeInterval(Double(index) / 1000)
            try await AnnouncementModel(title: entry.title, body: entry.body, createdAt: createdAt).create(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await AnnouncementModel.query(on: database).delete()
    }
}
