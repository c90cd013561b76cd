/// The files of one media import: each read once, however many announcements it belongs to,
/// and removed as soon as the last of them has stored it — so the temporary files of a site's
/// whole uploads directory never pile up.
actor MediaFileCache {
    private let source: any MediaSource
    private var reads: [String: Task<ReceivedFile, any Error>] = [:]
    /// Announcements still to store each file.
    private var uses: [String: Int]
    /// Files read so far.
    private(set) var filesRead = 0

    /// - Parameter uses: how many announcements will ask for each file (by key).
    init(source: any MediaSource, uses: [String: Int]) {
        self.source = source
        self.uses = uses
    }

    /// The file of `medium`, read from its first source that has it.
    ///
    /// - Throws: the ``MediaReadError`` of its first source when none has it.
    func file(for medium: MediaPlan.Medium) async throws -> ReceivedFile {
        if let read = reads[medium.key] { return try await read.value }
        let source = self.source
        let read = Task { try await Self.read(medium.sources, from: source) }
        reads[medium.key] = read
        let file = try await read.value
        filesRead += 1
        return file
    }

    /// Notes that one announcement is done with the file of `key`, removing it after the last.
    func release(_ key: String) async {
        let left = (uses[key] ?? 1) - 1
        uses[key] = left
        guard left <= 0, let read = reads.removeValue(forKey: key) else { return }
        (try? await read.value)?.discard()
    }

    /// Removes every file still kept (when the import ends early).
    func discardAll() async {
        for read in reads.values {
            read.cancel()
            (try? await read.value)?.discard()
        }
        reads = [:]
    }

    private static func read(_ sources: [UploadReference], from source: any MediaSource) async throws -> ReceivedFile {
        var firstFailure: (any Error)?
        for reference in sources {
            do {
                return try await source.read(reference)
            } catch let error as MediaReadError {
                firstFailure = firstFailure ?? error
                // A resized copy stands in for an original only when the original is missing.
                guard error == .notFound else { break }
            }
        }
        throw firstFailure ?? MediaReadError.notFound
    }
}
