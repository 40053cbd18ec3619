import ContactModel
import Foundation
import TestSupport
import Testing
import VCardFormat

/// khard (`pip install khard`) on the vdirs vcf writes, and vcf on what khard writes: khard lists, shows and
/// edits our cards; we read, check and merge into khard's.
@Suite(.enabled(if: Khard.isAvailable && builtBinary != nil, "khard is not installed (pip install khard); skipped"))
struct KhardTests {
    static let book =
        VdirCommandTests.book
        + Places.card(
            "FN:Zoë Ångström", "N:Ångström;Zoë;;;", "ORG:Fabrikam;Research", "TITLE:Chemist",
            "BDAY:1985-04-15", "ADR;TYPE=HOME:;;Kungsgatan 1;Stockholm;;111 43;Sweden",
            "NOTE:line one\\nline two", "EMAIL;TYPE=WORK:zoe@fabrikam.example")

    @Test func khardListsAndShowsWhatWeWrote() throws {
        let khard = try Khard()
        defer { khard.remove() }
        let convert = try Places.process(["convert", khard.write(Self.book), "--ensure-uid", "--to-vdir", khard.vdir])
        #expect(convert.code == 0, "\(convert.err)")
        let list = try khard.run(["list"])
        #expect(list.code == 0, "\(list.err)")
        for name in ["Ann Lee", "Bob Stone", "Cara Diaz", "Zoë Ångström"] {
            #expect(list.out.contains(name), "\(name)")
        }
        #expect(!list.err.contains("Error") && !list.err.contains("unparsable"), "\(list.err)")
        let show = try khard.run(["show", "--format", "yaml", "Ångström"])
        #expect(show.code == 0)
        for value in [
            "Fabrikam", "Chemist", "1985-04-15", "Kungsgatan 1", "Stockholm", "zoe@fabrikam.example", "line two",
        ] {
            #expect(show.out.contains(value), "\(value)")
        }
        let files = try khard.run(["filename"])
        #expect(files.out.split(separator: "\n").filter { $0.hasSuffix(".vcf") }.count == 4)
    }

    /// Cards khard's parser (Python vobject) once failed on, or read only in part: vendor names RFC 6350 does not
    /// allow (which made khard refuse the whole address book), a NICKNAME list, a name in two languages.
    @Test func khardReadsCardsItOnceRefused() throws {
        let khard = try Khard()
        defer { khard.remove() }
        let vendor = Places.card(
            "FN:Kai Berg", "N:Berg;Kai;;;", "NICKNAME:Kai,Kaito", "X-GOOGLE TALK;TYPE=WORK:kai.talk",
            "X-messaging/xmpp-All:kai@example.org")
        let four =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Aiko Tanaka\r\nN;ALTID=1;LANGUAGE=en:Tanaka;Aiko;;;\r\n"
            + "N;ALTID=1;LANGUAGE=ja:田中;愛子;;;\r\nREV:20200101T000000Z\r\nREV:20231105T101500Z\r\nEND:VCARD\r\n"
        let convert = try Places.process(
            ["convert", khard.write(VdirCommandTests.book + vendor + four), "--ensure-uid", "--to-vdir", khard.vdir])
        #expect(convert.code == 0, "\(convert.err)")
        let list = try khard.run(["list"])
        #expect(list.code == 0 && !list.err.contains("Error"), "\(list.err)")
        for name in ["Ann Lee", "Kai Berg", "Aiko Tanaka"] { #expect(list.out.contains(name), "\(name)") }
        let show = try khard.run(["show", "--format", "yaml", "Kai Berg"])
        #expect(show.out.contains("Kaito"), "\(show.out)")
        // The folder keeps the vendor's data under names khard can read.
        let text = Places.files(khard.vdir).map {
            (try? String(contentsOfFile: "\(khard.vdir)/\($0)", encoding: .utf8)) ?? ""
        }.joined()
        #expect(text.contains("X-GOOGLE-TALK;TYPE=WORK:kai.talk") && text.contains("X-messaging-xmpp-All:kai@"))
    }

    @Test func khardEditsOurCardAndWeReadTheEdit() throws {
        let khard = try Khard()
        defer { khard.remove() }
        let source = try khard.write(Self.book)
        #expect(try Places.process(["convert", source, "--ensure-uid", "--to-vdir", khard.vdir]).code == 0)
        let files = Places.files(khard.vdir)
        // khard's own way to edit without an editor: the card's YAML changed and given back with -i.
        var yaml = try khard.run(["show", "--format", "yaml", "Ann Lee"]).out
        yaml = yaml.replacingOccurrences(
            of: #"(?m)^Organisation *:.*$"#, with: "Organisation: Umbrella Ltd", options: .regularExpression)
        try Places.write(yaml, "\(khard.folder)/ann.yaml")
        let edit = try khard.run(["edit", "-i", "\(khard.folder)/ann.yaml", "Ann Lee"], stdin: "yes\n")
        #expect(edit.code == 0, "\(edit.err)")
        #expect(Places.files(khard.vdir) == files)

        let read = try Places.process(["convert", khard.vdir, "--to", "json"])
        #expect(read.code == 0 && read.err.isEmpty, "\(read.err)")
        let ann = Places.contacts(khard.vdir).first { $0.uid == "ann-1" }
        #expect(ann?.organization?.name == "Umbrella Ltd")
        // Merging the original export again neither duplicates Ann nor takes khard's edit back.
        let merge = try Places.process(["merge", source, "--into", khard.vdir])
        #expect(merge.code == 0, "\(merge.err)")
        #expect(Places.files(khard.vdir) == files)
        #expect(Places.contacts(khard.vdir).first { $0.uid == "ann-1" }?.organization?.name == "Umbrella Ltd")
    }

    @Test func weReadAndMergeIntoWhatKhardWrote() throws {
        let khard = try Khard()
        defer { khard.remove() }
        var template = try khard.run(["template"]).out
        template = template.replacingOccurrences(
            of: #"(?m)^First name *:.*$"#, with: "First name: Dora", options: .regularExpression)
        template = template.replacingOccurrences(
            of: #"(?m)^Last name *:.*$"#, with: "Last name: Khard", options: .regularExpression)
        template = template.replacingOccurrences(
            of: #"(?m)^Email *:\n( +.*\n)*"#, with: "Email:\n    home: dora@example.com\n", options: .regularExpression)
        try Places.write(template, "\(khard.folder)/new.yaml")
        let new = try khard.run(["new", "-i", "\(khard.folder)/new.yaml"])
        #expect(new.code == 0, "\(new.err)")
        #expect(Places.files(khard.vdir).count == 1)

        let lint = try Places.process(["lint", khard.vdir, "--carddav"])
        #expect(lint.code == 0, "\(lint.err) \(lint.text)")
        let dora = Places.contacts(khard.vdir)
        #expect(dora.count == 1 && dora.first?.emails.first?.value == "dora@example.com")
        #expect(dora.first?.uid != nil)

        let incoming = try khard.write(
            Places.card("FN:Dora Khard", "N:Khard;Dora;;;", "EMAIL:dora@example.com", "TEL;TYPE=CELL:+49 170 1234567"))
        let merge = try Places.process(["merge", incoming, "--into", khard.vdir])
        #expect(merge.code == 0 && merge.err.contains("0 added, 1 merged"), "\(merge.err)")
        #expect(Places.files(khard.vdir).count == 1)
        let shown = try khard.run(["show", "--format", "yaml", "Dora"])
        #expect(shown.out.contains("+49 170 1234567"), "\(shown.out)")
        #expect(try khard.run(["list"]).out.components(separatedBy: "Dora Khard").count == 2)
    }
}

/// A khard configuration in a temporary folder with one address book, the vdir `vdir`.
struct Khard {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/khard" }.first(where: FileManager.default.isExecutableFile)
    }()

    static let isAvailable: Bool = {
        guard let executable else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    let folder: String
    var vdir: String { folder + "/contacts" }
    var config: String { folder + "/khard.conf" }

    init() throws {
        folder = try Places.folder("khard")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try Places.write(
            """
            [addressbooks]
            [[contacts]]
            path = \(vdir)
            [general]
            editor = /bin/false
            merge_editor = /bin/false
            default_action = list
            [contact table]
            display = formatted_name
            show_uids = no
            [vcard]
            preferred_version = 3.0

            """, config)
    }

    /// A file in the folder holding `text`; its path.
    func write(_ text: String) throws -> String {
        let path = "\(folder)/in-\(UUID().uuidString).vcf"
        try Places.write(text, path)
        return path
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// khard with this configuration; `stdin` answers its questions.
    func run(_ arguments: [String], stdin: String = "") throws -> (code: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable!)
        process.arguments = ["-c", config] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": folder, "LC_ALL": "C.UTF-8"]) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
