import ContactCSV
import Foundation
import UserFiles
import VCardFormat

/// `convert --to csv` in two readings of its inputs, so memory stays bounded by the largest card: Google's
/// columns (how many email, phone, address and website groups, the anniversary's `Event` group, the kept
/// columns) come from every card, so the first reading settles them and the second writes each card's row as
/// it is read. Inputs that cannot be read twice are read once, each card's cells spooled to disk, and the rows
/// written from there.
extension Convert {
    /// Writes the CSV of `inputs` to `output` in two readings; the exit code. `reader` makes the first reading
    /// and reports what it finds; the second reading is silent, as it reads the same cards again.
    static func writeCSV(
        _ inputs: RereadableInputs, reader: inout InputReader, output: CommandOutput, io: CommandIO
    ) throws -> Int32 {
        var builder = ContactCSV.LayoutBuilder()
        var cards = 0
        var leftOut = ContactCSV.LeftOut()
        let prepare: @Sendable (ReadCard) -> (ContactCSV.CardNeeds, [String]) = {
            (ContactCSV.CardNeeds($0.contact), ContactCSV.leftOut($0.contact))
        }
        try reader.forEachCard(in: inputs.paths, preparing: prepare) { prepared, _ in
            builder.add(prepared.0)
            leftOut.add(prepared.1)
            cards += 1
        }
        if reader.ioFailures > 0 && output.replacesFile {
            // Part of the input is missing: the file keeps what it had rather than part of what was asked.
            output.abandon()
            io.error("\(output.path ?? .standardStream): error: not written, because an input could not be read")
            return ExitCode.ioFailure
        }
        if let changed = inputs.changed() {
            return changedBetweenReadings(changed, output: output, wroteSome: false, io: io)
        }
        let layout = builder.layout()
        var bytes = layout.header()
        let silent = CommandIO(standardOutput: io.standardOutput, standardError: { _ in })
        silent.outputEnded = io.outputEnded
        var second = InputReader(io: silent, forcedFormat: reader.forcedFormat, charset: reader.charset)
        second.user = reader.user
        second.limits = reader.limits
        var rows = 0
        var wroteSome = false
        do {
            let row: @Sendable (ReadCard) -> [UInt8]? = { card in
                var row: [UInt8] = []
                return layout.appendRow(card.contact, to: &row) ? row : nil
            }
            try second.forEachCard(in: inputs.paths, preparing: row) { row, _ in
                // A card the first reading did not see: the input changed between the readings.
                guard let row else { throw CardOutsideLayout() }
                rows += 1
                bytes += row
                if bytes.count >= DescriptorWriter.defaultBufferSize {
                    try output.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                    wroteSome = true
                }
            }
        } catch is CardOutsideLayout {
            return changedBetweenReadings(inputs.changedOrOnly(), output: output, wroteSome: wroteSome, io: io)
        }
        if !io.outputEnded() && (rows != cards || second.ioFailures != reader.ioFailures) {
            return changedBetweenReadings(inputs.changedOrOnly(), output: output, wroteSome: wroteSome, io: io)
        }
        if let changed = inputs.changed() {
            return changedBetweenReadings(changed, output: output, wroteSome: wroteSome, io: io)
        }
        try output.write(bytes)
        try output.commit()
        sayLeftOut(leftOut, output: output, io: io)
        if reader.ioFailures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// Says which properties the cards had that the Google CSV written does not carry: `--to csv` left them out,
    /// and nothing said so.
    static func sayLeftOut(_ leftOut: ContactCSV.LeftOut, output: CommandOutput, io: CommandIO) {
        guard let summary = leftOut.summary else { return }
        io.error(
            "\(output.path.map { "\($0)" } ?? "standard output"): note: not written to the Google CSV: \(summary); "
                + "--to vcard4 or --to json keeps them")
    }

    /// Writes the CSV of inputs that cannot be read twice (standard input, a pipe, a collection URL): each card's
    /// cells (`ContactCSV.PendingRow`) go to `spool` as it is read, with what it asks of the columns, and its row
    /// is written from there once they are settled. The disk holds the cards' cells, not memory.
    static func writeSpooledCSV(
        _ inputs: [UserPath], spool: RecordSpool, reader: inout InputReader, output: CommandOutput, io: CommandIO
    ) throws -> Int32 {
        var builder = ContactCSV.LayoutBuilder()
        var leftOut = ContactCSV.LeftOut()
        let prepare: @Sendable (ReadCard) -> (ContactCSV.PendingRow, [String]) = {
            (ContactCSV.PendingRow($0.contact), ContactCSV.leftOut($0.contact))
        }
        try reader.forEachCard(in: inputs, preparing: prepare) { prepared, _ in
            builder.add(prepared.0.needs)
            leftOut.add(prepared.1)
            try spool.append(prepared.0.bytes)
        }
        if reader.ioFailures > 0 && output.replacesFile {
            output.abandon()
            io.error("\(output.path ?? .standardStream): error: not written, because an input could not be read")
            return ExitCode.ioFailure
        }
        let layout = builder.layout()
        var bytes = layout.header()
        try spool.readBack { record in
            // Every card spooled was added to the layout, so its row fits.
            guard let pending = ContactCSV.PendingRow(bytes: record), layout.appendRow(pending, to: &bytes) else {
                throw FileError(.standardStream, "cannot read back the spooled cards", code: EIO)
            }
            if bytes.count >= DescriptorWriter.defaultBufferSize {
                try output.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        try output.write(bytes)
        try output.commit()
        sayLeftOut(leftOut, output: output, io: io)
        if reader.ioFailures > 0 { return ExitCode.ioFailure }
        return reader.errorCount > 0 ? ExitCode.problems : ExitCode.success
    }

    /// Reports an input that changed between the two readings and leaves a file output as it was.
    /// `path` is the input, nil when it cannot be told (several inputs, none of which looks changed).
    private static func changedBetweenReadings(
        _ path: UserPath?, output: CommandOutput, wroteSome: Bool, io: CommandIO
    ) -> Int32 {
        output.abandon()
        let outcome =
            output.replacesFile
            ? "\(output.path ?? .standardStream) was not written"
            : wroteSome ? "the output written so far is incomplete" : "nothing was written"
        io.error(
            "\(path.map { "\($0)" } ?? "vcf"): error: \(path == nil ? "an" : "the") input changed while it was "
                + "converted to CSV (its columns come from a first reading, its rows from a second); \(outcome)")
        return ExitCode.ioFailure
    }

    /// Thrown out of the second reading at a card whose columns the first reading did not see.
    private struct CardOutsideLayout: Error {}
}
