import ContactCSV
import Testing

/// The RFC 4180 layer on its own: rows, line breaks, quotes, positions, and the formula guard both ways.
@Suite struct SyntaxTests {
    static func written(_ fields: [String]) -> String {
        var out: [UInt8] = []
        CSVSyntax.append(row: fields, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func fieldsAreQuotedOnlyWhenNeededAndGuardedAgainstFormulas() {
        #expect(
            Self.written(["a", "b c", "", "d,e", "say \"hi\"", "x\ny"])
                == "a,b c,,\"d,e\",\"say \"\"hi\"\"\",\"x\ny\"\r\n")
        #expect(
            Self.written(["=1+1", "+1", "-1", "@x", "\tx", "'=x", "'tis", "a=b"])
                == "'=1+1,'+1,'-1,'@x,'\tx,''=x,'tis,a=b\r\n")
        #expect(Self.written(["\rx"]) == "\"'\rx\"\r\n")
    }

    @Test func quotedFieldsKeepLineBreaksAndPositionsCountPhysicalLines() {
        let table = CSVSyntax.parse(Array("h1,h2\r\n\"a\r\nb\nc\",\"d\"\"e\"\r\n'=f,g\n".utf8))
        #expect(table.problems.isEmpty)
        #expect(table.rows.map(\.fields) == [["h1", "h2"], ["a\r\nb\nc", "d\"e"], ["=f", "g"]])
        #expect(table.rows.map(\.line) == [1, 2, 5])
        #expect(
            table.rows[1].positions == [CSVSyntax.Position(line: 2, column: 1), CSVSyntax.Position(line: 4, column: 4)])
    }

    @Test func loneCRRowsAndATrailingCommaAtTheEnd() {
        let table = CSVSyntax.parse(Array("a,b\rc,".utf8))
        #expect(table.rows.map(\.fields) == [["a", "b"], ["c", ""]])
        #expect(table.rows.map(\.line) == [1, 2])
        #expect(
            table.rows[1].positions == [CSVSyntax.Position(line: 2, column: 1), CSVSyntax.Position(line: 2, column: 3)])
    }

    @Test func textAfterAClosingQuoteIsKeptWithAWarning() {
        let table = CSVSyntax.parse(Array("\"ab\"cd,e\r\n".utf8))
        #expect(table.rows.map(\.fields) == [["abcd", "e"]])
        #expect(table.problems.map(\.code) == [.textAfterQuote])
        #expect(table.problems.map(\.column) == [5])
    }

}
