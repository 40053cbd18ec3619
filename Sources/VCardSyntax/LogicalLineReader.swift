/// The lexer's first two stages composed: bytes in, in chunks of any size; logical lines out, to `consumer`.
///
/// A `LineSplitter` wrapped by an `Unfolder`, as a line decoder wraps a split decoder: the splitter keeps the bytes,
/// the unfolder points into them, and the reader tells the splitter which bytes the unfolder still needs.
package struct LogicalLineReader<Consumer: LogicalLineConsumer> {
    /// Where the logical lines go.
    package var consumer: Consumer
    private var splitter: LineSplitter
    private var unfolder: Unfolder

    /// Creates a reader for the start of an input.
    package init(limits: Limits, consumer: Consumer) {
        self.consumer = consumer
        splitter = LineSplitter(maxLineBytes: limits.maxLineBytes)
        unfolder = Unfolder(limits: limits)
    }

    /// Creates a reader for input that continues a stream after `line` lines and `offset` bytes.
    package init(limits: Limits, consumer: Consumer, continuingAfterLine line: Int, offset: Int) {
        self.init(limits: limits, consumer: consumer)
        splitter = LineSplitter(maxLineBytes: limits.maxLineBytes, continuingAfterLine: line, offset: offset)
    }

    /// The input offset just past everything read.
    package var absoluteEnd: Int { splitter.absoluteEnd }

    /// Adds the next chunk of input, handing on every logical line it completes.
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
        let dropped = splitter.append(chunk, retaining: unfolder.retainedStart)
        if dropped > 0 { unfolder.rebase(by: dropped) }
        // Nothing is split before a byte order mark could have been seen.
        if !splitter.waitingForByteOrderMark { scan(final: false) }
    }

    /// Ends the input, handing on the last logical line.
    package mutating func finish() {
        splitter.finishInput()
        scan(final: true)
        let bytes = splitter.buffer
        bytes.withUnsafeBufferPointer { unfolder.flush($0, into: &consumer) }
    }

    private mutating func scan(final: Bool) {
        // The buffer is not changed while scanning, so one pointer serves every line.
        let bytes = splitter.buffer
        bytes.withUnsafeBufferPointer { bytes in
            while let event = splitter.next(bytes, final: final) {
                unfolder.take(event, bytes, base: splitter.bufferBase, lineNumber: splitter.lineNumber, into: &consumer)
            }
        }
    }
}
