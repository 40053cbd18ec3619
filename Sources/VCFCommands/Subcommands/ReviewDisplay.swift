import ContactMatching
import ContactMerge
import TerminalText

extension Review {
    /// Everything the review prints for a person, in one place (to route through the shared sanitiser).
    enum Display {
        static let prompt = "[m]erge, [k]eep apart, [s]kip, [q]uit? "

        static func unknown(_ text: String) -> String {
            "not an answer: \(clean(text)); answer m, k, s or q\n"
        }

        static func done(asked: Int, of total: Int) -> String {
            "review: \(asked) of \(total) possible duplicates answered\n"
        }

        /// Two cards side by side, a `*` before each field that differs (in bold on a terminal).
        static func question(
            _ q: ReviewSession.Question, left: MergeSuggestions.Side, right: MergeSuggestions.Side, width: Int,
            color: Bool
        ) -> String {
            let label = 6
            let column = max(16, (width - label - 5) / 2)
            var out = "\npossible duplicate \(q.number) of \(q.total), score \(Scoring.points(q.suggestion.rank))\n"
            out += row(" ", "", clean("\(left.file):\(left.line)"), clean("\(right.file):\(right.line)"), column)
            for r in q.rows {
                let count = max(r.left.count, r.right.count)
                for i in 0..<count {
                    let mark = r.differs && i == 0 ? "*" : " "
                    let line = row(
                        mark, i == 0 ? r.field : "", i < r.left.count ? clean(r.left[i]) : "",
                        i < r.right.count ? clean(r.right[i]) : "", column)
                    out += r.differs && color ? "\u{1B}[1m" + line.dropLast() + "\u{1B}[0m\n" : line
                }
            }
            return out + "(* differs)\n"
        }

        private static func row(_ mark: String, _ field: String, _ left: String, _ right: String, _ column: Int)
            -> String
        {
            "\(mark) \(pad(field, 6)) \(pad(cut(left, column), column)) | \(cut(right, column))\n"
        }

        private static func pad(_ text: String, _ width: Int) -> String {
            let count = text.count
            return count >= width ? text : text + String(repeating: " ", count: width - count)
        }

        private static func cut(_ text: String, _ width: Int) -> String {
            text.count <= width ? text : String(text.prefix(width - 1)) + "…"
        }

        /// Card text made safe to show on one line, by the one sanitiser everything printed passes.
        static func clean(_ text: String) -> String { TerminalText.sanitized(text) }
    }
}
