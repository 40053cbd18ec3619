import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat
import VCardSyntax

@testable import VCFCommands

/// Helpers for the vdir, CardDAV and khard tests: runs in-process (with an environment) and as the built
/// binary, temporary folders, and cards compared as contacts.
enum Places {
    struct Run {
        var code: Int32
        var out: [UInt8]
        var err: String
        var text: String { String(decoding: out, as: UTF8.self) }
    }

    /// `vcf` run in-process with `environment`.
    static func run(_ arguments: [String], environment: [String: String] = [:]) -> Run {
        let (io, out, err) = CommandIO.capturing()
        io.environment = environment
        let code = VCFCommandLine.run(arguments, io: io)
        return Run(code: code, out: out(), err: err())
    }

    /// The built `vcf` run as a process with `environment` added to this one's.
    static func process(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Run {
        let (code, out, err) = try ExecutableTests.run(arguments, stdin: stdin, environment: environment)
        return Run(code: code, out: [UInt8](out), err: err)
    }

    /// A new empty temporary folder.
    static func folder(_ label: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcf-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The `.vcf` files of `folder`, sorted.
    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    /// The contacts of every `.vcf` file of `folder` (or of the file `path`).
    static func contacts(_ path: String) -> [Contact] {
        let paths = files(path).isEmpty ? [path] : files(path).map { "\(path)/\($0)" }
        return paths.flatMap { file in
            VCardDocument.read((try? [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) ?? []).cards.map(\.contact)
        }
    }

    /// Contacts as sorted vCard texts, for comparing two books whatever their order and layout (a server may
    /// store the properties it does not know in another order, with `;` and `,` escaped, their names upper-cased
    /// and their TYPE parameters joined).
    static func canonical(_ contacts: [Contact]) -> [String] {
        contacts.map { contact in
            var sorted = contact
            for i in sorted.extensions.indices {
                sorted.extensions[i].value = ValueEscaping.unescapeText(sorted.extensions[i].value)
                // Names are case-insensitive (RFC 6350 3.3); Radicale stores them upper-cased.
                sorted.extensions[i].name = sorted.extensions[i].name.uppercased()
                // `TYPE=WORK;TYPE=PREF` and `TYPE=WORK,PREF` are one parameter (Python vobject joins them).
                var joined: [ExtraParameter] = []
                for parameter in sorted.extensions[i].parameters {
                    if let at = joined.firstIndex(where: { $0.name.uppercased() == parameter.name.uppercased() }) {
                        joined[at].values += parameter.values
                    } else {
                        joined.append(parameter)
                    }
                }
                sorted.extensions[i].parameters = joined
            }
            sorted.extensions.sort { ($0.name, $0.value) < ($1.name, $1.value) }
            return String(decoding: VCardWriter().bytes([sorted]), as: UTF8.self)
        }.sorted()
    }

    /// Inode and modification time of each file in `folder`.
    static func stamps(_ folder: String) -> [String: [Int]] {
        var all: [String: [Int]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: "\(folder)/\(name)") else {
                continue
            }
            let inode = (attributes[.systemFileNumber] as? Int) ?? 0
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            all[name] = [inode, Int(modified * 1_000_000_000)]
        }
        return all
    }

    /// One card's text.
    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
