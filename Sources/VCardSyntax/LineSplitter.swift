#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lexer's first stage: turns a byte stream into physical lines, fed in chunks of any size.
///
/// It sniffs a byte order mark (UTF-8, UTF-16 with or without one) and transcodes UTF-16 to UTF-8 as it comes, so
/// the stages after it only ever see UTF-8. A line ends at LF, at a run of CRs followed by LF (CR CR LF is one line
/// end, as iOS writes it), or at a run of CRs. Lines are offsets into one buffer: none is copied. A line longer than
/// `maxLineBytes` is reported as soon as that many bytes have come without a line end, and is never buffered whole.
package struct LineSplitter {
    /// One step of the split: a line, or news of a line too long to keep.
    package enum Event: Equatable {
        /// A physical line: `bytes[start..<end]`, the next line starting at `next`.
        case line(start: Int, end: Int, next: Int)
        /// A line over the limit, numbered `number`; `bytes[start..<end]` is what of it has arrived. Its end, when
        /// it comes, is reported as `.endOfOverlongLine` and what it holds is never seen.
        case overlongLine(start: Int, end: Int, number: Int)
        /// The end of a line that was reported as `.overlongLine` before its end had arrived.
        case endOfOverlongLine
    }

    /// The longest physical line kept, in bytes.
    package let maxLineBytes: Int
    /// The bytes read and not yet dropped; offsets in events index this buffer.
    package private(set) var buffer: [UInt8] = []
    /// The offset in the input (in UTF-8 bytes, after transcoding) of `buffer[0]`.
    package private(set) var bufferBase = 0
    /// The number of physical lines ended so far.
    package private(set) var lineNumber = 0
    private var scanIndex = 0
    private var sniffed = false
    private var transcoder: UTF16Transcoder?
    private var skippingOverlongLine = false
    private var lineFeeds = ByteFinder(ASCII.lf)
    private var carriageReturns = ByteFinder(ASCII.cr)

    /// Creates a splitter for the start of an input.
    package init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Creates a splitter for input that continues a stream after `line` lines and `offset` bytes, where no byte
    /// order mark is looked for.
    package init(maxLineBytes: Int, continuingAfterLine line: Int, offset: Int) {
        self.maxLineBytes = maxLineBytes
        lineNumber = line
        bufferBase = offset
        sniffed = true
    }

    /// The offset in the input just past everything read.
    package var absoluteEnd: Int { bufferBase + buffer.count }

    /// Adds a chunk of input, first dropping the lines already split before `retained` (an offset in `buffer`
    /// that a later stage still points into), and returns how many bytes were dropped from the front.
    package mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, retaining retained: Int?) -> Int {
        let dropped = compact(retaining: retained)
        if let transcoder {
            var copy = transcoder
            self.transcoder = nil
            copy.transcode(chunk, into: &buffer)
            self.transcoder = copy
        } else {
            buffer.append(contentsOf: chunk)
        }
        if !sniffed && buffer.count >= 4 { sniff() }
        return dropped
    }

    /// Marks the end of the input: what is left becomes the last line.
    package mutating func finishInput() {
        if !sniffed { sniff() }
        if var transcoder {
            self.transcoder = nil
            transcoder.finish(into: &buffer)
            self.transcoder = transcoder
        }
    }

    /// Whether bytes may still be waiting for a byte order mark to be recognised (fewer than four read).
    package var waitingForByteOrderMark: Bool { !sniffed }

    /// The next event in `bytes` (which must be `buffer`), or nil when no whole line is left; with `final`, the
    /// input has ended and what is left is a line.
    package mutating func next(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Event? {
        let count = bytes.count
        while scanIndex < count {
            let lineStart = scanIndex
            guard let (lineEnd, next) = findLineEnd(bytes, from: lineStart, final: final) else {
                // No complete line yet: refuse to buffer an unbounded physical line.
                guard count - lineStart > maxLineBytes else { return nil }
                scanIndex = count
                if skippingOverlongLine { return nil }
                skippingOverlongLine = true
                return .overlongLine(start: lineStart, end: count, number: lineNumber + 1)
            }
            lineNumber += 1
            scanIndex = next
            if skippingOverlongLine {
                skippingOverlongLine = false
                return .endOfOverlongLine
            }
            if lineEnd - lineStart > maxLineBytes {
                return .overlongLine(start: lineStart, end: lineEnd, number: lineNumber)
            }
            return .line(start: lineStart, end: lineEnd, next: next)
        }
        return nil
    }

    private mutating func sniff() {
        sniffed = true
        if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            scanIndex = 3
            return
        }
        var bigEndian: Bool?
        var skip = 0
        if buffer.count >= 2 && buffer[0] == 0xFF && buffer[1] == 0xFE {
            bigEndian = false
            skip = 2
        } else if buffer.count >= 2 && buffer[0] == 0xFE && buffer[1] == 0xFF {
            bigEndian = true
            skip = 2
        } else if buffer.count >= 4 && buffer[0] != 0 && buffer[1] == 0 && buffer[2] != 0 && buffer[3] == 0 {
            bigEndian = false
        } else if buffer.count >= 4 && buffer[0] == 0 && buffer[1] != 0 && buffer[2] == 0 && buffer[3] != 0 {
            bigEndian = true
        }
        guard let bigEndian else { return }
        // Offsets then count UTF-8 bytes of the transcoded text, not bytes of the file.
        var transcoder = UTF16Transcoder(bigEndian: bigEndian)
        let raw = Array(buffer[skip...])
        buffer.removeAll(keepingCapacity: true)
        raw.withUnsafeBufferPointer { transcoder.transcode($0, into: &buffer) }
        if buffer.first == 0xEF && buffer.count >= 3 && buffer[1] == 0xBB && buffer[2] == 0xBF { scanIndex = 3 }
        self.transcoder = transcoder
    }

    private mutating func compact(retaining retained: Int?) -> Int {
        let keep = min(scanIndex, retained ?? scanIndex)
        guard keep > 0, keep >= buffer.count / 2 || keep > 1 << 20 else { return 0 }
        buffer.removeFirst(keep)
        bufferBase += keep
        scanIndex -= keep
        lineFeeds.rebase(by: keep)
        carriageReturns.rebase(by: keep)
        return keep
    }

    /// The end of the physical line starting at `from` and the start of the next one.
    @inline(__always)
    private mutating func findLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, final: Bool) -> (Int, Int)? {
        let count = bytes.count
        let lineFeed = lineFeeds.first(in: bytes, from: from)
        let carriageReturn = carriageReturns.first(in: bytes, from: from)
        guard let index = carriageReturn, index < lineFeed ?? count else {
            if let lineFeed { return (lineFeed, lineFeed + 1) }
            return final && from < count ? (count, count) : nil
        }
        var after = index + 1
        while after < count && bytes[after] == ASCII.cr { after += 1 }
        if after == count { return final ? (index, count) : nil }
        if bytes[after] == ASCII.lf { return (index, after + 1) }
        return (index, after)
    }
}

/// Finds one byte value in a growing buffer with `memchr`, remembering what it has searched so that a scan that
/// moves forward never reads a byte twice (finding LF and CR separately would otherwise rescan a CR-only file).
struct ByteFinder {
    let target: UInt8
    /// The offset of the next `target` found, or -1.
    private var found = -1
    /// Bytes before this offset have been searched (and hold no `target` after `found`).
    private var searchedEnd = 0

    init(_ target: UInt8) { self.target = target }

    /// The offset of the first `target` at or after `from`, or nil when `bytes[from...]` holds none. `from` must not
    /// move back between calls (except by `rebase`).
    @inline(__always)
    mutating func first(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        if found >= from { return found }
        let start = max(from, searchedEnd)
        let count = bytes.count
        guard start < count, let base = bytes.baseAddress else { return nil }
        if let offset = Self.search(base + start, target, count - start) {
            found = start + offset
            searchedEnd = found + 1
            return found
        }
        found = -1
        searchedEnd = count
        return nil
    }

    /// Shifts the remembered offsets when `count` bytes are dropped from the front of the buffer.
    mutating func rebase(by count: Int) {
        if found >= 0 { found -= count }
        searchedEnd = max(0, searchedEnd - count)
    }

    @inline(__always)
    private static func search(_ start: UnsafePointer<UInt8>, _ byte: UInt8, _ count: Int) -> Int? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let hit = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(start)
        #else
        for index in 0..<count where start[index] == byte { return index }
        return nil
        #endif
    }
}
