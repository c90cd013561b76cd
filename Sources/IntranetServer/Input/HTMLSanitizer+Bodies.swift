import IntranetHTML

extension HTMLSanitizer {
    /// The sanitiser every announcement body goes through before it is stored (written by an
    /// editor or imported). No host may be embedded yet: every `iframe` is removed.
    static let bodies = HTMLSanitizer()
}
