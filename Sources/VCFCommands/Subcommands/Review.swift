import ContactMatching
import ContactMerge
import ContactModel
import Foundation
import UserFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--review` and `--accept` for merge and dedupe: the terminal side of `ReviewSession` (showing two cards side by
/// side, reading answers) and the decisions file beside the contacts file. The answers' logic is the library's.
enum Review {
    /// The decisions file of a contacts file.
    static func decisionsPath(_ contacts: UserPath) -> UserPath {
        UserPath(bytes: contacts.bytes + Array(".decisions".utf8))
    }

    /// The decisions kept beside `contacts`; empty when there is no file; nil (with a message) when it cannot be
    /// read.
    static func decisions(for contacts: UserPath, io: CommandIO) -> ReviewDecisions? {
        let path = decisionsPath(contacts)
        guard !contacts.isStandardStream, FileIdentity.of(path) != nil else { return ReviewDecisions() }
        let bytes: [UInt8]
        do {
            let file = try InputFile.open(path)
            defer { file.close() }
            bytes = try file.readAll()
        } catch {
            io.error("\(error)")
            return nil
        }
        do {
            return try ReviewDecisions(text: String(decoding: bytes, as: UTF8.self))
        } catch {
            io.error("\(path):\(error): error: not a decisions file; nothing was changed")
            return nil
        }
    }

    /// Writes `decisions` beside `contacts`, replacing the old decisions file atomically.
    static func save(_ decisions: ReviewDecisions, for contacts: UserPath, io: CommandIO) -> Bool {
        do {
            let output = try CommandOutput.open(decisionsPath(contacts), io: io, options: FileReplacement.Options())
            defer { output.abandon() }
            try output.write(Array(decisions.text(for: contacts.description).utf8))
            try output.commit()
            return true
        } catch {
            io.error("\(error)")
            return false
        }
    }

    /// The answers for `plan`: from `--accept FILE`, then from `--review`; nil after a message when an answer
    /// file cannot be read or the review cannot ask.
    static func answers(
        _ plan: MergePlan, file: ContactsFile, incoming: [IncomingCard], settings: Merge.Settings, io: CommandIO
    ) -> [Int: ReviewAnswer]? {
        var answers: [Int: ReviewAnswer] = [:]
        if let path = settings.accept {
            guard let accepted = accept(path, plan: plan, file: file, incoming: incoming, io: io) else { return nil }
            answers = accepted
        }
        guard settings.review, !plan.suggestions.isEmpty else { return answers }
        var session = ReviewSession(plan, preference: settings.engine.preference)
        let input = AnswerInput()
        defer { input.restore() }
        let width = terminalWidth(io)
        let suggestions = MergeSuggestions(
            file: file, incoming: incoming, result: MergeResult(), isDedupe: plan.isDedupe)
        while let question = session.question() {
            if answers[question.index] != nil {
                session.answer(.skip)
                continue
            }
            let (first, second) = suggestions.sides(question.suggestion)
            io.standardError(
                Display.question(question, left: first, right: second, width: width, color: input.isTerminal))
            var answer: ReviewSession.Answer?
            while answer == nil {
                io.standardError(Display.prompt)
                guard let text = input.read() else {
                    // The end of the answers: as if quit.
                    io.standardError("\n")
                    answer = .quit
                    break
                }
                io.standardError(Review.Display.clean(text) + "\n")
                answer = ReviewSession.Answer(text)
                if answer == nil { io.standardError(Display.unknown(text)) }
            }
            session.answer(answer!)
        }
        for (index, answer) in session.answers { answers[index] = answer }
        io.standardError(Display.done(asked: session.asked, of: plan.suggestions.count))
        return answers
    }

    /// The pairs listed in an answers file, as answers to the plan's suggestions: the `--json` report (its
    /// `possibleDuplicates`), a JSON array of such pairs, or lines of two UIDs and an optional `merge` or
    /// `keep-apart`. A pair's `decision` is `merge` unless it says `keep-apart`.
    static func accept(
        _ path: UserPath, plan: MergePlan, file: ContactsFile, incoming: [IncomingCard], io: CommandIO
    ) -> [Int: ReviewAnswer]? {
        let bytes = InputReader.readWhole(path, io: io)
        guard let bytes else { return nil }
        var listed: [(String, String, ReviewAnswer)] = []
        if let json = try? JSONSerialization.jsonObject(with: Data(bytes)) {
            let pairs =
                (json as? [String: Any]).flatMap { $0["possibleDuplicates"] as? [Any] } ?? (json as? [Any]) ?? []
            for case let pair as [String: Any] in pairs {
                guard let a = (pair["first"] as? [String: Any])?["uid"] as? String,
                    let b = (pair["second"] as? [String: Any])?["uid"] as? String
                else { continue }
                listed.append((a, b, (pair["decision"] as? String).flatMap(ReviewAnswer.init) ?? .merge))
            }
        } else {
            for (number, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n").enumerated() {
                let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
                if words.isEmpty || words[0].hasPrefix("#") { continue }
                guard words.count == 2 || words.count == 3 && ReviewAnswer(rawValue: words[2]) != nil else {
                    io.error("\(path):\(number + 1): error: expected two UIDs and merge or keep-apart")
                    return nil
                }
                listed.append((words[0], words[1], words.count == 3 ? ReviewAnswer(rawValue: words[2])! : .merge))
            }
        }
        let suggestions = MergeSuggestions(
            file: file, incoming: incoming, result: MergeResult(), isDedupe: plan.isDedupe)
        var index: [[String]: Int] = [:]
        for (i, s) in plan.suggestions.enumerated() {
            let (first, second) = suggestions.sides(s)
            guard let x = MatchKeys.uidKey(first.uid), let y = MatchKeys.uidKey(second.uid) else { continue }
            index[x < y ? [x, y] : [y, x]] = i
        }
        var answers: [Int: ReviewAnswer] = [:]
        var unknown = 0
        for (a, b, answer) in listed {
            guard let x = MatchKeys.uidKey(a), let y = MatchKeys.uidKey(b), let i = index[x < y ? [x, y] : [y, x]]
            else {
                unknown += 1
                continue
            }
            answers[i] = answer
        }
        if unknown > 0 {
            io.error(
                "\(path): note: \(unknown) listed pair\(unknown == 1 ? " is" : "s are") not a possible duplicate now "
                    + "(already merged, kept apart, or changed); left alone")
        }
        return answers
    }

    static func terminalWidth(_ io: CommandIO) -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 40 { return Int(size.ws_col) }
        if let columns = io.environment["COLUMNS"].flatMap(Int.init), columns >= 40 { return columns }
        return 100
    }
}

/// Where answers come from: the terminal, a key at a time without Enter, or else standard input, a line at a time.
final class AnswerInput {
    let isTerminal = isatty(0) == 1
    private var saved: termios?
    private var buffer: [UInt8] = []
    private var ended = false

    init() {
        guard isTerminal else { return }
        var current = termios()
        guard tcgetattr(0, &current) == 0 else { return }
        saved = current
        var raw = current
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
    }

    /// Puts the terminal back as it was.
    func restore() {
        if var saved { tcsetattr(0, TCSANOW, &saved) }
        saved = nil
    }

    deinit { restore() }

    /// The next answer: one key on a terminal, one line otherwise; nil at the end of the input (or Ctrl-D).
    func read() -> String? {
        if isTerminal {
            var byte: UInt8 = 0
            while true {
                let n = systemRead(0, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1, byte != 4 else { return nil }
                if byte == 0x0A || byte == 0x0D { return "" }
                return String(decoding: [byte], as: UTF8.self)
            }
        }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                return String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = [] }
                return String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { systemRead(0, $0.baseAddress, 4096) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ended = true
            } else {
                buffer += chunk[..<n]
            }
        }
    }
}

/// `read(2)`, named apart from the methods called `read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
