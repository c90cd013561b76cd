import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

/// The SDK's outbox of acknowledgements, against a scripted server: what stays queued and what
/// goes.
@Suite("Acknowledgements: the SDK's outbox")
struct AcknowledgementOutboxTests {
    private static func client(_ transport: MockTransport) -> (IntranetClient, ResponseStore) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite")
        let store = ResponseStore(fileURL: file)
        let configuration = IntranetClientConfiguration(retryPolicy: nil, responseStore: store, storeScope: "test")
        return (IntranetClient(transport: transport, configuration: configuration), store)
    }

    private static let receipt = #"{"round":2,"acknowledgedAt":"2026-11-26T10:00:00.000Z"}"#

    @Test("queued once per announcement and round; a 503 keeps it, the answer takes it out, with the round sent as the query")
    func keptUntilAnswered() async throws {
        let transport = MockTransport(script: [
            .failure(URLError(.cannotConnectToHost)), .failure(URLError(.cannotConnectToHost)),
            .problem(.serviceUnavailable, detail: "later"), .text(Self.receipt),
        ])
        let (client, _) = Self.client(transport)
        guard case .queued = try await client.acknowledge(5, round: 2) else { Issue.record("not queued"); return }
        _ = try await client.acknowledge(5, round: 2)
        #expect(await client.acknowledgements.queued().map(\.announcementID) == [5], "queued once")
        #expect(await client.acknowledgements.sendQueued().isEmpty, "a 503 says not now")
        #expect(await client.acknowledgements.queued().count == 1)
        let sent = await client.acknowledgements.sendQueued()
        #expect((try? sent[5]?.get()) == AcknowledgementReceipt(round: 2, acknowledgedAt: IntranetJSON.parseDate("2026-11-26T10:00:00.000Z")!))
        #expect(await client.acknowledgements.queued().isEmpty)
        let last = await transport.requests.last
        #expect(last?.method == .put && last?.path == "/announcements/5/acknowledgement" && last?.queryDictionary["round"] == "2")
    }

    @Test("a refusal (the post asks a newer round, or is gone) is reported and dropped; the others are still sent")
    func refusalDropped() async throws {
        let transport = MockTransport(script: [
            .failure(URLError(.cannotConnectToHost)), .failure(URLError(.cannotConnectToHost)),
            .problem(.conflict, detail: "This announcement changed and asks again (round 3)"), .text(Self.receipt),
        ])
        let (client, _) = Self.client(transport)
        _ = try await client.acknowledge(5, round: 2)
        _ = try await client.acknowledge(6)
        let sent = await client.acknowledgements.sendQueued()
        guard case .failure(.conflict)? = sent[5] else { Issue.record("not refused: \(String(describing: sent[5]))"); return }
        #expect((try? sent[6]?.get())?.round == 2)
        #expect(await client.acknowledgements.queued().isEmpty)
    }
}
