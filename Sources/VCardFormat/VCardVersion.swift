import VCardSyntax

/// The vCard versions read and written.
// The cases are named for the version numbers the RFCs use.
// swift-format-ignore: AlwaysUseLowerCamelCase
public enum VCardVersion: String, Hashable, Sendable, Codable, CaseIterable {
    /// vCard 2.1 (versit, 1996): read only.
    case v2_1 = "2.1"
    /// vCard 3.0 (RFC 2426): the default output.
    case v3_0 = "3.0"
    /// vCard 4.0 (RFC 6350).
    case v4_0 = "4.0"

    /// The version a VERSION value names; cards without one are read as 3.0, the most common.
    public init(versionValue: String?) {
        switch versionValue?.trimmingASCIIWhitespace() {
        case "2.1", "2.0", "1.0": self = .v2_1
        case "4.0", "4": self = .v4_0
        default: self = .v3_0
        }
    }
}
