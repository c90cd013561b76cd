import Foundation
import Spearal
import Testing

@Suite("Alias strategy")
struct AliasStrategyTests {
    static func strategy() -> SpearalAliasStrategy {
        var aliases = SpearalAliasStrategy(classAliases: ["Person": DescribedValues.personClass])
        aliases.setPropertyAliases(["description_": "description"], forClass: "Person")
        return aliases
    }

    @Test("local class and property names are sent as the remote ones, byte for byte")
    func aliasesProduceJavaBytes() throws {
        let person = Person(id: 1, name: "Uzumaki Naruto", description_: "Konoha", imageUrl: nil)

        let data = try SpearalEncoder(aliasStrategy: Self.strategy()).encode(person)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person").hex))
    }

    @Test("remote names decode into the local property")
    func remoteNamesDecodeToLocal() throws {
        let data = Data(try ReferenceVectors.named("person").bytes)

        let person = try SpearalDecoder(aliasStrategy: Self.strategy()).decode(Person.self, from: data)

        #expect(person.description_ == "Konoha")
    }

    @Test("the wildcard class applies property aliases to every class")
    func wildcardAppliesToAllClasses() {
        var aliases = SpearalAliasStrategy()
        aliases.setPropertyAliases(["description_": "description"], forClass: SpearalAliasStrategy.anyClass)

        #expect(aliases.remotePropertyName("description_", inClass: "Anything") == "description")
        #expect(aliases.localPropertyName("description", inClass: "Anything") == "description_")
        #expect(aliases.remotePropertyName("name", inClass: "Anything") == "name")
    }

    @Test("class names map both ways and unknown names pass through")
    func classNamesMapBothWays() {
        let aliases = Self.strategy()

        #expect(aliases.remoteClassName(forLocal: "Person") == DescribedValues.personClass)
        #expect(aliases.localClassName(forRemote: DescribedValues.personClass) == "Person")
        #expect(aliases.localClassName(forRemote: "x.Y") == "x.Y")
    }
}
