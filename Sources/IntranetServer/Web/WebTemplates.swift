import Foundation
import IntranetHTML
import Mustache
import NIOCore

/// The web front end's templates, stylesheet and script, read once at start-up from the
/// package's `Resources/web` folder.
struct WebTemplates: Sendable {
    /// Every `.mustache` file of the folder, by name (`index`, `announcement`, `layout`, …).
    let library: MustacheLibrary
    /// `style.css`, ready to send.
    let stylesheet: ByteBuffer
    /// The stylesheet's `ETag`: it changes only with a new build.
    let stylesheetTag: String
    /// `site.js`, the pages' one script (they work without it): it shows times in the reader's
    /// zone, and fills the editor's form in it.
    let script: ByteBuffer
    /// The script's `ETag`.
    let scriptTag: String

    /// Loads the templates.
    ///
    /// - Throws: when the folder is missing or a template does not parse.
    static func load() async throws -> WebTemplates {
        guard let folder = Bundle.module.url(forResource: "web", withExtension: nil) else {
            throw WebTemplatesMissing()
        }
        // Every template starts with `{{% CONTENT_TYPE: SCALAR_HTML }}` (a test checks it).
        MustacheContentTypes.register(ScalarHTMLContentType(), named: ScalarHTMLContentType.name)
        let library = try await MustacheLibrary(directory: folder.path)
        let css = try Data(contentsOf: folder.appendingPathComponent("style.css"))
        let script = try Data(contentsOf: folder.appendingPathComponent("site.js"))
        return WebTemplates(
            library: library, stylesheet: ByteBuffer(bytes: css), stylesheetTag: EntityTag.forContent(css, suffix: "css"),
            script: ByteBuffer(bytes: script), scriptTag: EntityTag.forContent(script, suffix: "js"))
    }

    /// Renders a page: its template with its context, inside the layout.
    ///
    /// - Parameters:
    ///   - template: the page's template (`index`, `announcement`, …).
    ///   - context: the values it shows, with the layout's (``WebPages/layout(_:_:)``).
    func render(_ template: String, _ context: [String: Any]) -> String {
        layout(main: library.render(context, withTemplate: template) ?? "", context)
    }

    /// The page's main part only, for the fragment cache.
    func renderMain(_ template: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: template) ?? ""
    }

    /// A main part inside the layout.
    ///
    /// - Parameters:
    ///   - main: the rendered main part.
    ///   - context: the layout's values (title, user, CSRF token).
    func layout(main: String, _ context: [String: Any]) -> String {
        var context = context
        context["main"] = main
        return library.render(context, withTemplate: "layout") ?? ""
    }
}

/// The web templates were not packaged with the server.
struct WebTemplatesMissing: Error, CustomStringConvertible {
    var description: String { "the web templates (Resources/web) are missing from the server's bundle" }
}

/// HTML escaping by Unicode scalar: the template library's own escaping compares whole
/// characters, so a `"` followed by a combining mark (one character) went through unescaped and
/// could end a quoted attribute. Every `<`, `>`, `&`, `"` and `'` scalar is escaped here,
/// whatever follows it.
struct ScalarHTMLContentType: MustacheContentType {
    /// The name templates give in their `CONTENT_TYPE` pragma.
    static let name = "SCALAR_HTML"

    func escapeText(_ text: String) -> String {
        // The sanitiser's escaping (by scalar), and the apostrophe, which templates may quote with.
        HTMLSanitizer.escape(text).replacingOccurrences(of: "'", with: "&#39;")
    }
}
