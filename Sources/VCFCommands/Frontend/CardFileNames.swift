import ContactModel
import Foundation
import TerminalText
import UserFiles

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// File names for one file per card (`photo extract`, `convert --split`): the card's name made safe, and a
/// number added when the name is taken, so no file already in the directory is ever replaced.
struct CardFileNames {
    let directory: UserPath
    private var used: Set<String> = []

    init(directory: UserPath) {
        self.directory = directory
    }

    /// A free path in the directory for `contact`'s file with the given extension. The name is checked
    /// again when the file is put in place (`FileReplacement.Options.createOnly`), so a file that appears in
    /// between is not replaced either: the caller then asks again.
    mutating func path(for contact: Contact, line: Int, extension ext: String) -> UserPath {
        let base = Self.stem(contact, line: line)
        var name = base + "." + ext
        var n = 2
        // Compared case-insensitively: on macOS `Ann.vcf` and `ann.vcf` are one file.
        while used.contains(name.lowercased())
            || FileIdentity.of(directory.appending(name), followingLinks: false) != nil
        {
            name = "\(base)-\(n).\(ext)"
            n += 1
        }
        used.insert(name.lowercased())
        return directory.appending(name)
    }

    /// The card's name made safe as a file name; the card's line when it has none.
    static func stem(_ contact: Contact, line: Int) -> String {
        let name = contact.formattedName ?? contact.derivedDisplayName
        var stem = ""
        for scalar in name.unicodeScalars {
            // What Windows, macOS or Linux forbids or reads specially in a name becomes `_`, so a split
            // directory can be copied anywhere; so does what a terminal would act on (controls, bidi overrides).
            if "<>:\"/\\|?*".unicodeScalars.contains(scalar) || TerminalText.needsEscape(scalar) {
                stem.append("_")
            } else {
                stem.unicodeScalars.append(scalar)
            }
        }
        stem = stem.trimmingCharacters(in: .whitespaces)
        while stem.hasPrefix(".") { stem.removeFirst() }
        while stem.hasSuffix(".") || stem.hasSuffix(" ") { stem.removeLast() }
        if stem.utf8.count > 100 { stem = String(stem.prefix(60)) }
        return stem.isEmpty ? "card-\(line)" : stem
    }
}
