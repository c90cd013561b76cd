import Testing
@testable import IntranetServer

/// Checks one environment setting: `text` in `variable` gives `expected`, or, when `expected`
/// is nil, is refused with a ``ConfigurationError`` naming `variable`; and without the variable
/// the value is `defaultValue`.
func expectSetting<Value: Equatable>(
    _ variable: String, _ text: String, gives expected: Value?, defaultValue: Value,
    _ read: (AppConfiguration) -> Value, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    if let expected {
        #expect(read(try AppConfiguration.fromEnvironment([variable: text])) == expected, sourceLocation: sourceLocation)
    } else {
        let error = #expect(throws: ConfigurationError.self, sourceLocation: sourceLocation) {
            try AppConfiguration.fromEnvironment([variable: text])
        }
        #expect(error?.variable == variable, sourceLocation: sourceLocation)
    }
    #expect(read(try AppConfiguration.fromEnvironment([:])) == defaultValue, sourceLocation: sourceLocation)
}
