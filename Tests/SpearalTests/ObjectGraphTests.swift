import Foundation
import Spearal
import Testing

@Suite("Object graphs through the Codable bridge")
struct ObjectGraphTests {
    static func enemies() -> PersonObject {
        let naruto = PersonObject(id: 1, name: "Uzumaki Naruto", description: "Konoha")
        let sasuke = PersonObject(id: 4, name: "Uchiha Sasuke", description: "Missing-nin")
        naruto.worstEnemy = sasuke
        sasuke.worstEnemy = naruto
        return naruto
    }

    @Test("a cycle of class instances encodes with a back-reference, byte for byte like Java")
    func cycleEncodesLikeJava() throws {
        let naruto = Self.enemies()
        defer { naruto.worstEnemy = nil }

        let data = try SpearalEncoder().encode(naruto)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person_cycle_worst_enemies").hex))
    }

    @Test("the same instance listed twice is sent once, like Java")
    func sharedInstanceEncodesLikeJava() throws {
        let naruto = PlainPersonObject(id: 1, name: "Uzumaki Naruto", description: "Konoha")

        let data = try SpearalEncoder().encode([naruto, naruto])

        #expect(Hex.string(data) == (try ReferenceVectors.named("list_same_person_twice").hex))
    }

    @Test("a person listed twice decodes into one shared instance")
    func sharedInstanceDecodesShared() throws {
        let data = Data(try ReferenceVectors.named("list_same_person_twice").bytes)

        let people = try SpearalDecoder().decode([PlainPersonObject].self, from: data)

        #expect(people.count == 2)
        #expect(people.first === people.last)
    }

    @Test("a cycle cannot be rebuilt through Decodable and says to use the value model")
    func cycleThrowsInCodable() throws {
        let data = Data(try ReferenceVectors.named("person_cycle_worst_enemies").bytes)

        #expect(throws: SpearalError.cyclicReference(className: DescribedValues.personClass)) {
            try SpearalDecoder().decode(PersonObject.self, from: data)
        }
    }

    @Test("the value model rebuilds the cycle with shared identity")
    func valueModelRebuildsCycle() throws {
        let data = try SpearalEncoder().encode(Self.enemies())

        let value = try SpearalDecoder().decodeValue(from: data)

        guard case .bean(let root) = value, case .bean(let enemy)? = root["worstEnemy"],
              case .bean(let again)? = enemy["worstEnemy"] else {
            Issue.record("unexpected shape \(value)")
            return
        }
        #expect(again === root)
        #expect(enemy["id"] == .integral(4))
    }
}
