/// A constant of an enum class (format type ENUM), e.g. `spearalref.Salutation.MR`.
public struct SpearalEnumConstant: Hashable, Sendable {
    /// The (remote) enum class name, e.g. `spearalref.Salutation`.
    public var className: String
    /// The constant name, e.g. `MR`.
    public var name: String

    /// Creates an enum constant.
    /// - Parameters:
    ///   - className: the remote enum class name.
    ///   - name: the constant name.
    public init(className: String, name: String) {
        self.className = className
        self.name = name
    }
}
