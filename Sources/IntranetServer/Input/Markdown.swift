import CCmarkGFM
import Foundation

/// Markdown as editors write it: CommonMark with GitHub's tables, strikethrough and autolinks,
/// through cmark-gfm. HTML typed into the Markdown is passed on as CommonMark says (an editor
/// who types `<strong>` gets bold), because what comes out goes through the one sanitiser like
/// every body: a script or an event handler never reaches a page.
enum Markdown {
    /// Registers cmark-gfm's extensions, once: the library's own guard is not thread-safe, a
    /// Swift static is initialised exactly once.
    private static let registration: Void = cmark_gfm_core_extensions_ensure_registered()

    /// The HTML of `markdown`.
    static func html(_ markdown: String) -> String {
        _ = registration
        // Raw HTML kept (CMARK_OPT_UNSAFE): the sanitiser, not cmark-gfm, decides what is safe.
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_UNSAFE
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "autolink"] {
            if let extensionPointer = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, extensionPointer)
            }
        }
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                cmark_parser_feed(parser, characters.baseAddress, characters.count)
            }
        }
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}
