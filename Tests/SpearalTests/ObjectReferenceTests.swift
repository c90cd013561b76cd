import Foundation
import Spearal
import Testing

@Suite("Object references in the value model")
struct ObjectReferenceTests {
    @Test("the same byte array twice is sent once and decoded as one instance")
    func repeatedByteArray() throws {
        let bytes = SpearalBytes([7, 8])
        let value = SpearalValue.collection(SpearalList([.byteArray(bytes), .byteArray(bytes)]))

        let hex = try Codec.encode(value)
        let decoded = try Codec.decode(hex)

        #expect(hex == "8002" + "60020708" + "6801")
        guard case .collection(let list) = decoded, case .byteArray(let first)? = list.elements.first,
              case .byteArray(let second)? = list.elements.last else {
            Issue.record("unexpected shape \(decoded)")
            return
        }
        #expect(first === second)
    }

    @Test("a collection that contains itself round-trips as a cycle")
    func selfContainingCollection() throws {
        let list = SpearalList([.integral(1)])
        list.elements.append(.collection(list))

        let hex = try Codec.encode(.collection(list))
        let decoded = try Codec.decode(hex)

        #expect(hex == "8002" + "1001" + "8800")
        guard case .collection(let decodedList) = decoded, case .collection(let inner)? = decodedList.elements.last else {
            Issue.record("unexpected shape \(decoded)")
            return
        }
        #expect(inner === decodedList)
    }

    @Test("a map listed twice is one map after decoding")
    func repeatedMap() throws {
        let map = SpearalMap([(.string("k"), .bool(true))])
        let value = SpearalValue.collection(SpearalList([.map(map), .map(map)]))

        let hex = try Codec.encode(value)
        let decoded = try Codec.decode(hex)

        #expect(hex == "8002" + "9001" + "50016b01" + "9801")
        guard case .collection(let list) = decoded, case .map(let first)? = list.elements.first,
              case .map(let second)? = list.elements.last else {
            Issue.record("unexpected shape \(decoded)")
            return
        }
        #expect(first === second)
    }

    @Test("the worst-enemies cycle decodes into two beans pointing at each other")
    func beanCycleKeepsIdentity() throws {
        let vector = try ReferenceVectors.named("person_cycle_worst_enemies")

        let decoded = try Codec.decode(vector.hex)

        guard case .bean(let naruto) = decoded, case .bean(let sasuke)? = naruto["worstEnemy"],
              case .bean(let back)? = sasuke["worstEnemy"] else {
            Issue.record("unexpected shape \(decoded)")
            return
        }
        #expect(back === naruto)
        #expect(sasuke["name"] == .string("Uchiha Sasuke"))
    }

    @Test("a person listed twice decodes into one shared bean")
    func sharedBeanKeepsIdentity() throws {
        let vector = try ReferenceVectors.named("list_same_person_twice")

        let decoded = try Codec.decode(vector.hex)

        guard case .collection(let list) = decoded, case .bean(let first)? = list.elements.first,
              case .bean(let second)? = list.elements.last else {
            Issue.record("unexpected shape \(decoded)")
            return
        }
        #expect(first === second)
        #expect(list.elements.count == 2)
    }

    @Test("a second bean of the same class reuses the description through the string table")
    func secondDescriptionIsReference() throws {
        let value = SpearalValue.collection(SpearalList([
            .bean(SpearalBean(className: "P", properties: [("a", .integral(1))])),
            .bean(SpearalBean(className: "P", properties: [("a", .integral(2))])),
        ]))

        let hex = try Codec.encode(value)

        #expect(hex == "8002" + "c003502361" + "1001" + "c400" + "1002")
    }

    @Test("dismantling a decoded cycle frees its objects")
    func dismantleFreesCycles() throws {
        weak var weakRoot: SpearalBean?
        do {
            let value = try Codec.decode(try ReferenceVectors.named("person_cycle_worst_enemies").hex)
            guard case .bean(let root) = value else {
                Issue.record("expected a bean, got \(value)")
                return
            }
            weakRoot = root
            value.dismantle()
        }

        #expect(weakRoot == nil)
    }
}
