import Foundation

/// Why a server refused a request, in words: its status, the precondition it named (RFC 6352 section 6.3.2,
/// RFC 4918 section 16) or the first words of its text, cleaned of markup and control characters.
enum ServerReason {
    /// The status and the server's reason, as one line.
    static func describe(_ response: HTTPResponse) -> String {
        var text = "\(response.status) \(phrase(response.status))"
        if let reason = reason(response), !reason.isEmpty { text += ": " + reason }
        return text
    }

    /// What the body says, if anything.
    static func reason(_ response: HTTPResponse) -> String? {
        guard !response.body.isEmpty else { return nil }
        if let root = try? DAVXML.parse(response.body), root.is(DAVNamespace.dav, "error") {
            let named = root.children.map { element -> String in
                let meaning = preconditions[element.name].map { " (\($0))" } ?? ""
                let detail = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
                return element.name + meaning + (detail.isEmpty ? "" : ": " + clean(detail))
            }
            if !named.isEmpty { return named.joined(separator: "; ") }
        }
        var text = String(decoding: response.body.prefix(4096), as: UTF8.self)
        if text.contains("<") {
            text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        }
        let cleaned = clean(text)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Text on one line, without control characters, at most 300 characters.
    static func clean(_ text: String) -> String {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .control || category == .format {
                space = !out.isEmpty
                continue
            }
            if space { out.append(" ") }
            space = false
            out.unicodeScalars.append(scalar)
        }
        return out.count > 300 ? String(out.prefix(300)) + "…" : out
    }

    /// What the preconditions servers name mean.
    static let preconditions: [String: String] = [
        "no-uid-conflict": "the address book already holds another card with this UID",
        "valid-address-data": "the server does not read the card as a valid vCard",
        "supported-address-data": "the server does not store this vCard version",
        "max-resource-size": "the card is larger than the server stores",
        "quota-not-exceeded": "the account's storage is full",
        "sufficient-disk-space": "the server's disk is full",
        "need-privileges": "the account may not write here",
    ]

    /// The reason phrase of a status code.
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 507: "Insufficient Storage"
        default: "status"
        }
    }
}
