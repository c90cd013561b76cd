import Foundation
import Spearal
import Testing

@Suite("Partial objects")
struct PartialObjectTests {
    @Test("only defined fields are sent, like spearal-java's partial Person")
    func undefinedFieldsAreLeftOut() throws {
        let update = PersonUpdate(id: 1, name: .defined("Uzumaki Naruto"))

        let data = try SpearalEncoder().encode(update)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person_partial_id_name").hex))
    }

    @Test("after decoding, the fields that arrived are defined and the others undefined")
    func decodingTellsWhichFieldsArrived() throws {
        let data = Data(try ReferenceVectors.named("person_partial_id_name").bytes)

        let update = try SpearalDecoder().decode(PersonUpdate.self, from: data)

        #expect(update.name == .defined("Uzumaki Naruto"))
        #expect(update.description == .undefined)
        #expect(update.imageUrl == .undefined)
        #expect(update.definedPropertyNames == ["id", "name"])
        #expect(!update.isDefined("imageUrl"))
    }

    @Test("a field defined as null stays distinct from an undefined field end to end")
    func nullIsNotUndefined() throws {
        let update = PersonUpdate(id: 7, imageUrl: .defined(nil))

        let data = try SpearalEncoder().encode(update)
        let value = try SpearalDecoder().decodeValue(from: data)
        let decoded = try SpearalDecoder().decode(PersonUpdate.self, from: data)

        guard case .bean(let bean) = value else {
            Issue.record("expected a bean, got \(value)")
            return
        }
        #expect(bean.definedPropertyNames == ["id", "imageUrl"])
        #expect(decoded.imageUrl == .defined(nil))
        #expect(decoded.name == .undefined)
        #expect(decoded == update)
    }

    @Test("a value-model bean tells which properties are defined")
    func beanTracksDefinedProperties() {
        let bean = SpearalBean(className: "P", properties: [("id", .integral(1))])

        bean["name"] = .null
        bean["id"] = nil

        #expect(bean.definedPropertyNames == ["name"])
        #expect(bean.isDefined("name"))
        #expect(!bean.isDefined("id"))
    }

    @Test("beans of one type with different defined fields each list only their own, sorted")
    func listOfPartialsKeepsEachShape() throws {
        let updates = [
            PersonUpdate(id: 1, name: .defined("A"), imageUrl: .defined(nil)),
            PersonUpdate(id: 2, description: .defined("B")),
            PersonUpdate(id: 3, name: .defined("C"), imageUrl: .defined("x")),
        ]

        let value = try SpearalEncoder().makeValue(updates)
        let decoded = try SpearalDecoder().decode([PersonUpdate].self, from: try SpearalEncoder().encode(updates))

        guard case .collection(let list) = value else {
            Issue.record("expected a collection, got \(value)")
            return
        }
        let shapes = list.elements.map { element -> [String] in
            guard case .bean(let bean) = element else { return [] }
            return bean.definedPropertyNames
        }
        #expect(shapes == [["id", "imageUrl", "name"], ["description", "id"], ["id", "imageUrl", "name"]])
        #expect(decoded == updates)
    }
}
