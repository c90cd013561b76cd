import Foundation
import Spearal
import Testing

@Suite("Divergent models")
struct DivergentModelTests {
    @Test("properties the Swift type lacks are decoded and dropped")
    func unknownPropertiesAreDropped() throws {
        let data = Data(try ReferenceVectors.named("person_cycle_worst_enemies").bytes)

        let person = try SpearalDecoder().decode(OutdatedPerson.self, from: data)

        #expect(person == OutdatedPerson(id: 1, name: "Uzumaki Naruto"))
    }

    @Test("references into a dropped property still resolve")
    func referencesIntoDroppedPropertiesResolve() throws {
        let naruto = PersonObject(id: 1, name: "Uzumaki Naruto", description: "Konoha")
        let sasuke = PersonObject(id: 4, name: "Uchiha Sasuke", description: "Missing-nin")
        naruto.worstEnemy = sasuke
        let data = try SpearalEncoder().encode([naruto, sasuke])

        let people = try SpearalDecoder().decode([OutdatedPerson].self, from: data)

        #expect(Hex.string(data).hasSuffix("c802"))
        #expect(people == [OutdatedPerson(id: 1, name: "Uzumaki Naruto"), OutdatedPerson(id: 4, name: "Uchiha Sasuke")])
    }

    @Test("properties the message lacks stay nil or undefined")
    func missingPropertiesStayUndefined() throws {
        let data = try SpearalEncoder().encode(OutdatedPerson(id: 3, name: "Sakura"))

        let full = try SpearalDecoder().decode(PersonStruct.self, from: data)
        let partial = try SpearalDecoder().decode(PersonUpdate.self, from: data)

        #expect(full == PersonStruct(id: 3, name: "Sakura", description: nil, imageUrl: nil))
        #expect(partial.description == .undefined)
        #expect(partial.name == .defined("Sakura"))
    }
}
