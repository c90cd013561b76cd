import CLibXML2

/// Parses HTML with libxml2's tolerant HTML parser and hands back a Swift tree.
///
/// The parser recovers from anything (unclosed or stray tags, bad nesting, unknown
/// entities), never reports to the console and never touches the network. The libxml2
/// document is freed before ``parseBody(_:)`` returns; attribute values are read from the
/// tree in place, so nothing else is allocated on libxml2's side.
public enum HTMLParser {
    /// The libxml2 parser options: recover from errors, stay silent, no network access.
    static let options: Int32 = {
        let flags = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
        return Int32(bitPattern: flags)
    }()

    /// Parses an HTML fragment such as an announcement body.
    ///
    /// - Parameter html: the HTML text (UTF-8 when sent to libxml2).
    /// - Returns: the children of the document's `<body>` (what a reader sees); empty for
    ///   empty input or input libxml2 cannot make a document of.
    public static func parseBody(_ html: String) -> [HTMLNode] {
        let bytes = Array(html.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return [] }
        let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                htmlReadMemory(characters.baseAddress, Int32(characters.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return [] }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return [] }
        let tree = convert(root)
        if let body = tree.descendants(named: "body").first, case .element(_, _, let children) = body {
            return children
        }
        // No <body> (input that is all head material): show nothing from the head.
        guard case .element(_, _, let children) = tree else { return [tree] }
        return children.filter { $0.elementName != "head" }
    }

    /// Parses an HTML fragment exactly as written: no `<html>`, `<body>` or `<p>` is implied
    /// around it, so `Hello <b>you</b>` stays two nodes of text and bold.
    ///
    /// The fragment is parsed inside a container element of its own (libxml2 wraps text at
    /// the top level in an implied paragraph); a stray end tag cannot close the container
    /// early, and anything libxml2 still puts after it is kept, in order.
    public static func parseFragment(_ html: String) -> [HTMLNode] {
        let bytes = Array((openContainer + html + closeContainer).utf8)
        guard html.utf8.contains(where: { $0 != 0x20 }), bytes.count <= Int(Int32.max) else { return [] }
        let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                htmlReadMemory(characters.baseAddress, Int32(characters.count), nil, "UTF-8", options | fragmentOptions)
            }
        }
        guard let document else { return [] }
        defer { xmlFreeDoc(document) }
        var nodes: [HTMLNode] = []
        var top = document.pointee.children
        while let current = top {
            if current.pointee.type == XML_ELEMENT_NODE {
                let node = convert(current)
                if case .element(containerName, _, let children) = node {
                    nodes += children
                } else {
                    nodes.append(node)
                }
            }
            top = current.pointee.next
        }
        return nodes
    }

    private static let containerName = "intranet-fragment"
    private static let openContainer = "<\(containerName)>"
    private static let closeContainer = "</\(containerName)>"
    private static let fragmentOptions = Int32(bitPattern: HTML_PARSE_NOIMPLIED.rawValue)

    private static func convert(_ node: xmlNodePtr) -> HTMLNode {
        let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
        return .element(name: name, attributes: attributes(of: node), children: children(of: node))
    }

    private static func children(of node: xmlNodePtr) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                nodes.append(convert(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    nodes.append(.text(String(cString: content)))
                }
            default:
                break  // comments, processing instructions, DTD nodes: never shown
            }
            child = current.pointee.next
        }
        return nodes
    }

    private static func attributes(of node: xmlNodePtr) -> [String: String] {
        var result: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name {
                var value = ""
                var text = current.pointee.children
                while let piece = text {
                    if let content = piece.pointee.content {
                        value += String(cString: content)
                    }
                    text = piece.pointee.next
                }
                result[String(cString: name).lowercased()] = value
            }
            attribute = current.pointee.next
        }
        return result
    }
}
