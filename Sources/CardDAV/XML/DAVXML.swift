import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element of a WebDAV body, its name resolved to a namespace: a small tree, because multistatus
/// answers are read by path (response / propstat / prop / getetag) rather than in document order.
public struct DAVElement: Sendable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:carddav`); empty for none.
    public var namespace: String
    /// The local name.
    public var name: String
    /// Attributes by local name.
    public var attributes: [String: String]
    /// Child elements in order.
    public var children: [DAVElement]
    /// The text directly inside (CDATA included).
    public var text: String

    /// The first child with this namespace and name.
    public func child(_ namespace: String, _ name: String) -> DAVElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    /// Every child with this namespace and name.
    public func children(_ namespace: String, _ name: String) -> [DAVElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// Whether this is the element `namespace` `name`.
    public func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }
}

/// Namespaces the client reads and writes.
public enum DAVNamespace {
    /// WebDAV (RFC 4918).
    public static let dav = "DAV:"
    /// CardDAV (RFC 6352).
    public static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    /// Apple's calendarserver extensions (getctag).
    public static let calendarServer = "http://calendarserver.org/ns/"
}

/// Reads XML into `DAVElement`s with Foundation's XMLParser (FoundationXML on Linux). External entities are
/// never resolved, so a server cannot make the client read local files.
public enum DAVXML {
    /// The root element of `bytes`.
    /// - Throws: `CardDAVError` of kind `.badResponse` when it is not well-formed XML.
    public static func parse(_ bytes: [UInt8]) throws -> DAVElement {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw CardDAVError(
                .badResponse, "the server's answer is not readable XML (line \(parser.lineNumber): \(reason))")
        }
        return root
    }

    /// Escapes text for an XML element or attribute value.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            var attributes: [String: String] = [:]
            for (key, value) in attributeDict {
                attributes[String(key.split(separator: ":").last ?? Substring(key))] = value
            }
            stack.append(
                DAVElement(
                    namespace: namespaceURI ?? "", name: elementName, attributes: attributes, children: [], text: ""))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: block, as: UTF8.self) }
        }
    }
}
