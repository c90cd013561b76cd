import IntranetHTML

extension HTMLSanitizer {
    /// The sanitiser with no embeds allowed: every `iframe` is removed. The server uses one
    /// built from `EMBED_HOSTS` (``AppConfiguration/embedHosts``) instead.
    static let bodies = HTMLSanitizer()
}
