/// The XML bodies the client sends.
enum DAVRequests {
    private static let head = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

    /// What a collection is: its type, name, the vCard versions and card size the server accepts.
    static let collectionProperties =
        head + """
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:resourcetype/><d:displayname/><card:supported-address-data/><card:max-resource-size/>\
            </d:prop></d:propfind>
            """

    /// Where a person's address books are.
    static let principalProperties =
        head + """
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:current-user-principal/><card:addressbook-home-set/><d:resourcetype/></d:prop></d:propfind>
            """

    /// The members of a collection, with their ETags.
    static let memberProperties =
        head + """
            <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/><d:getcontenttype/></d:prop></d:propfind>
            """

    /// An `addressbook-multiget` REPORT (RFC 6352 section 8.7) for `hrefs`.
    static func multiget(_ hrefs: [String]) -> String {
        head + "<card:addressbook-multiget xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\">"
            + "<d:prop><d:getetag/><card:address-data/></d:prop>"
            + hrefs.map { "<d:href>\(DAVXML.escaped($0))</d:href>" }.joined()
            + "</card:addressbook-multiget>"
    }

    /// An extended MKCOL (RFC 5689) making an address book named `name`.
    static func makeAddressBook(_ name: String) -> String {
        head + "<d:mkcol xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\"><d:set><d:prop>"
            + "<d:resourcetype><d:collection/><card:addressbook/></d:resourcetype>"
            + "<d:displayname>\(DAVXML.escaped(name))</d:displayname></d:prop></d:set></d:mkcol>"
    }
}
