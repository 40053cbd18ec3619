#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How the lexer decodes 8-bit text that is not UTF-8 and declares no CHARSET (or one it cannot use).
///
/// Such text is decided once its card has ended, in this order:
/// 1. `charset`, when the user named one (`--charset`);
/// 2. a CHARSET another line of the same card declares (Outlook declares it on some properties only);
/// 3. UTF-8, for a value that is valid UTF-8 but for one damaged sequence (a value cut inside its last
///    character): only that sequence becomes U+FFFD;
/// 4. the CHARSET the file declares (`file.declared`);
/// 5. the detector's choice from the value's letters (`CharsetDetector`), with the file's choice
///    (`file.detected`) as a head start.
/// Each card's decision is reported as a warning naming the charset and why.
public struct DecodingOptions: Hashable, Sendable {
    /// The charset of every value that is not UTF-8 and declares none, as the user says (nil: decide).
    public var charset: Charset?
    /// What the file as a whole says (see `CharsetEvidence.survey`).
    public var file: CharsetEvidence

    /// Creates options; by default everything is decided from the input.
    public init(charset: Charset? = nil, file: CharsetEvidence = .none) {
        self.charset = charset
        self.file = file
    }
}

/// What a file says about the charset of its undeclared 8-bit text, gathered before its cards are read so that
/// every reader (whole, streamed in chunks, on several threads) gives each card the same file-level evidence.
public struct CharsetEvidence: Hashable, Sendable {
    /// The legacy CHARSET the file declares most often (ties: the first declared).
    public var declared: Charset?
    /// The charset the detector chooses for all the file's undeclared 8-bit text together.
    public var detected: Charset?

    /// Creates evidence.
    public init(declared: Charset? = nil, detected: Charset? = nil) {
        self.declared = declared
        self.detected = detected
    }

    /// No evidence: the file is UTF-8 (or ASCII) throughout.
    public static let none = CharsetEvidence()

    /// How much of a file the readers survey: the evidence is what its first 4 MiB say (all of it, for nearly
    /// every file). A bound, so that a reader of a pipe holds at most this much before the first card.
    public static let surveyedBytes = 4 << 20

    /// The evidence in `bytes` (a file's first `surveyedBytes`, or less). A file whose bytes are all UTF-8 and
    /// hold no quoted-printable 8-bit byte needs no decision and is not lexed; any other is lexed once.
    public static func survey(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = .default) -> CharsetEvidence {
        needsSurvey(bytes) ? lexedSurvey(bytes, limits: limits) : .none
    }

    /// The evidence a lexer gathers from all of `bytes`, needed or not.
    static func lexedSurvey(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) -> CharsetEvidence {
        var lexer = VCardLexer(limits: limits, decoding: DecodingOptions(), surveying: true)
        // Fed a slice at a time, so the cards lexed (and dropped) are never all held at once.
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + (64 << 10))
            _ = lexer.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        _ = lexer.finish()
        return lexer.surveyedEvidence
    }

    /// `survey` of an array.
    public static func survey(_ bytes: [UInt8], limits: Limits = .default) -> CharsetEvidence {
        bytes.withUnsafeBufferPointer { survey($0, limits: limits) }
    }

    /// Whether any text could need a decision: bytes that are not UTF-8 (an incomplete sequence at the very
    /// end is the cut of a survey, not a fault), or a quoted-printable escape of a byte over 0x7F in a file
    /// where some parameter could ask for quoted-printable.
    static func needsSurvey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        // Back over an incomplete last sequence: at most three continuation bytes after a lead byte.
        var back = 0
        while back < 3 && end - back - 1 >= 0 && bytes[end - back - 1] & 0xC0 == 0x80 { back += 1 }
        if end - back - 1 >= 0 && bytes[end - back - 1] >= 0xC0 { end -= back + 1 }
        if !TextDecoding.isUTF8(UnsafeBufferPointer(rebasing: bytes[0..<end])) { return true }
        // `TYPE=CELL` and `VALUE=date` look like escapes of 8-bit bytes: without a parameter asking for
        // quoted-printable nothing is decoded, and every value is the UTF-8 just checked.
        guard mayAskForQuotedPrintable(bytes) else { return false }
        return forEachIndex(of: ASCII.equals, in: bytes) { index in
            guard index + 2 < bytes.count, let high = ASCII.hexValue(bytes[index + 1]) else { return false }
            return high >= 8 && ASCII.hexValue(bytes[index + 2]) != nil
        }
    }

    /// Calls `found` with each index of `byte` in `bytes` (found with `memchr`) until it returns true; whether
    /// it did.
    private static func forEachIndex(
        of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Bool
    ) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while index < bytes.count, let hit = memchr(base + index, Int32(byte), bytes.count - index) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if found(at) { return true }
            index = at + 1
        }
        return false
    }
}

extension CharsetEvidence {
    /// Whether some parameter of `bytes` could ask for quoted-printable: the lexer does so only for the word
    /// `QUOTED-PRINTABLE` or for an `ENCODING` whose first value is `QP`, case aside. It reads a parameter after
    /// unfolding its line, so line breaks and blanks are allowed between the letters here; anything else that
    /// matches (a word in a value) only costs a survey.
    static func mayAskForQuotedPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Both ways start with a Q, which is rare outside base64: look around each one.
        forEachIndex(of: UInt8(ascii: "Q"), in: bytes) { asksForQuotedPrintable(bytes, at: $0) }
            || forEachIndex(of: UInt8(ascii: "q"), in: bytes) { asksForQuotedPrintable(bytes, at: $0) }
    }

    /// Whether the Q at `index` begins `QUOTED-PRINTABLE`, or `QP` after `ENCODING` and `=` (folded).
    private static func asksForQuotedPrintable(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        if foldedWord("QUOTED-PRINTABLE", in: bytes, at: index) != nil { return true }
        guard foldedWord("QP", in: bytes, at: index) != nil else { return false }
        var before = index
        while before > 0, isFoldingByte(bytes[before - 1]) || bytes[before - 1] == UInt8(ascii: "\"") {
            before -= 1
        }
        guard before > 0, bytes[before - 1] == ASCII.equals else { return false }
        before -= 1
        // `ENCODING`, read backwards with folding bytes between its letters.
        for letter in "ENCODING".utf8.reversed() {
            while before > 0, isFoldingByte(bytes[before - 1]) { before -= 1 }
            guard before > 0, bytes[before - 1] & ~0x20 == letter else { return false }
            before -= 1
        }
        return true
    }

    /// The index after `word` (upper-case ASCII) spelt at `start` in any case, with folding bytes between its
    /// letters; nil when it is not there.
    private static func foldedWord(_ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var next = start
        for (offset, letter) in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount).enumerated() {
            if offset > 0 { while next < bytes.count, isFoldingByte(bytes[next]) { next += 1 } }
            guard next < bytes.count else { return nil }
            let byte = bytes[next]
            guard
                byte == letter || (letter >= UInt8(ascii: "A") && letter <= UInt8(ascii: "Z") && byte == letter | 0x20)
            else { return nil }
            next += 1
        }
        return next
    }

    private static func isFoldingByte(_ byte: UInt8) -> Bool {
        byte == ASCII.cr || byte == ASCII.lf || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

/// The file-level evidence a surveying lexer gathers from each card.
struct CharsetSurveyor {
    /// The most bytes of undeclared text kept for the detector: plenty to tell charsets apart.
    static let maxSampleBytes = 64 << 10

    private var declared: [(charset: Charset, count: Int)] = []
    private var samples: [[UInt8]] = []
    private var sampleBytes = 0

    mutating func add(_ card: RawCard) {
        for charset in card.declaredCharsets {
            if let index = declared.firstIndex(where: { $0.charset == charset }) {
                declared[index].count += 1
            } else {
                declared.append((charset, 1))
            }
        }
        for undecided in card.undecided where sampleBytes < Self.maxSampleBytes {
            let bytes = Array(card.bytes[card.span(of: undecided).start..<card.span(of: undecided).end])
            if bytes.withUnsafeBufferPointer(TextDecoding.isDamagedUTF8) { continue }
            samples.append(bytes)
            sampleBytes += bytes.count
        }
    }

    var evidence: CharsetEvidence {
        var best: (charset: Charset, count: Int)?
        for entry in declared where best == nil || entry.count > best!.count { best = entry }
        return CharsetEvidence(
            declared: best?.charset, detected: samples.isEmpty ? nil : CharsetDetector.detect(samples))
    }
}

extension RawCard {
    /// A value or parameter value whose bytes wait for the card's charset decision.
    struct Undecided: Hashable, Sendable {
        enum Place: Hashable, Sendable {
            /// The value of line record `index`.
            case value(Int)
            /// Parameter value `index` (in `parameterValues`).
            case parameter(Int)
        }

        var place: Place
        var line: Int
        var column: Int
        var name: String
    }

    func span(of undecided: Undecided) -> Span {
        switch undecided.place {
        case .value(let index): records[index].value
        case .parameter(let index): parameterValues[index]
        }
    }

    /// Decodes every undecided value of the card as `DecodingOptions` says, and tells what was chosen.
    mutating func decideCharsets(_ options: DecodingOptions) -> [Diagnostic] {
        guard !undecided.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        var rest: [Undecided] = []
        var chosen: (charset: Charset, reason: String)?
        if let forced = options.charset {
            chosen = (forced, "as --charset says")
            rest = undecided
        } else if let declared = declaredCharsets.first(where: { decodesAll(undecided, $0) }) {
            chosen = (declared, "the CHARSET another line of this card declares")
            rest = undecided
        } else {
            for item in undecided {
                let span = span(of: item)
                let damaged = bytes.withUnsafeBufferPointer {
                    TextDecoding.isDamagedUTF8(UnsafeBufferPointer(rebasing: $0[span.start..<span.end]))
                }
                guard damaged else {
                    rest.append(item)
                    continue
                }
                set(item, to: Charset.utf8)
                diagnostics.append(
                    Diagnostic(
                        .warning, .invalidEncoding,
                        "\(item.name): UTF-8 but for one damaged sequence, which was read as U+FFFD", line: item.line,
                        column: item.column))
            }
            if !rest.isEmpty {
                if let declared = options.file.declared, decodesAll(rest, declared) {
                    chosen = (declared, "the CHARSET other cards of this file declare")
                } else {
                    let samples = rest.map { item in
                        let span = span(of: item)
                        return Array(bytes[span.start..<span.end])
                    }
                    let detected = CharsetDetector.detect(samples, prior: options.file.detected)
                    chosen = (
                        detected,
                        detected == options.file.detected
                            ? "the charset the letters of this file point to" : "the charset its letters point to"
                    )
                }
            }
        }
        if let chosen, !rest.isEmpty {
            for item in rest { set(item, to: chosen.charset) }
            var names: [String] = []
            for item in rest where !names.contains(item.name) { names.append(item.name) }
            diagnostics.append(
                Diagnostic(
                    .warning, .invalidEncoding,
                    "\(names.joined(separator: ", ")): not UTF-8 and no CHARSET; read as \(chosen.charset.name), "
                        + chosen.reason,
                    line: rest[0].line, column: rest[0].column))
        }
        undecided.removeAll()
        return diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private func decodesAll(_ items: [Undecided], _ charset: Charset) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            items.allSatisfy { item in
                let span = span(of: item)
                return charset.decodeStrictly(UnsafeBufferPointer(rebasing: all[span.start..<span.end])) != nil
            }
        }
    }

    private mutating func set(_ item: Undecided, to charset: Charset) {
        let span = span(of: item)
        let text = bytes.withUnsafeBufferPointer {
            charset.decode(UnsafeBufferPointer(rebasing: $0[span.start..<span.end]))
        }
        let decoded = appendBytes(text)
        switch item.place {
        case .value(let index): records[index].value = decoded
        case .parameter(let index): parameterValues[index] = decoded
        }
    }
}
