// Incoming card `i` is a duplicate of existing card `j` exactly when `incomingPeople[i] == existingPeople[j]`.
// Person ids are unique per real person; each person appears at most once in each book. The same options give
// byte-identical text on every platform.

/// A seeded pair of vCard address books, "existing" and "incoming", labelled with who is who.
public struct LabeledBook: Sendable {
    /// Generation knobs; defaults give a realistic mix.
    public struct Options: Sendable {
        /// The seed of the deterministic generator (SplitMix64).
        public var seed: UInt64
        /// How many people (and cards) the existing book holds.
        public var existingPeople: Int
        /// How many existing people are exported again into the incoming book (capped at `existingPeople`).
        public var incomingDuplicates: Int
        /// How many incoming cards are people the existing book does not know.
        public var incomingNew: Int
        /// How many incoming cards are different people built to look like someone in the existing book.
        public var traps: Int
        /// The calling code written in international phone formats (national numbers are US style).
        public var countryCode: Int

        /// Options with the given sizes and country code 1.
        public init(seed: UInt64 = 1, existingPeople: Int = 10_000, incomingDuplicates: Int = 2_000,
                    incomingNew: Int = 1_000, traps: Int = 500) {
            self.seed = seed
            self.existingPeople = existingPeople
            self.incomingDuplicates = incomingDuplicates
            self.incomingNew = incomingNew
            self.traps = traps
            self.countryCode = 1
        }
    }

    /// Why an incoming card exists.
    public enum Kind: String, Sendable {
        /// The same person as one existing card, exported by another service.
        case duplicate
        /// A person the existing book does not know.
        case new
        /// A different person at the same company as an existing person (switchboard, domain, office).
        case colleague
        /// A different person sharing an existing person's family name, home phone, address and family email.
        case spouse
        /// A different person with exactly an existing person's given and family name.
        case namesake
        /// A different person: an existing person's son, "Jr.", sharing the home phone and address.
        case son
        /// A different person: an existing "Jr."'s father ("Sr." or no suffix), sharing the home phone and address.
        case father
    }

    /// The vCard text of the existing book (CRLF line ends).
    public var existing: String
    /// The vCard text of the incoming cards (CRLF line ends).
    public var incoming: String
    /// The person id of each existing card, in file order.
    public var existingPeople: [Int]
    /// The person id of each incoming card, in file order.
    public var incomingPeople: [Int]
    /// Why each incoming card exists, in file order.
    public var incomingKinds: [Kind]

    /// Generates both books from the options; the same options always give the same bytes.
    public static func generate(_ options: Options) -> LabeledBook {
        var generator = Generator(options)
        return generator.run()
    }

    /// The labels as `file\tindex\tperson\tkind` rows under a header (kind `existing` in the existing book).
    public func labelsTSV() -> String {
        var text = "file\tindex\tperson\tkind\n"
        text.reserveCapacity((existingPeople.count + incomingPeople.count) * 28)
        for (index, person) in existingPeople.enumerated() {
            text += "existing\t\(index)\t\(person)\texisting\n"
        }
        for (index, person) in incomingPeople.enumerated() {
            text += "incoming\t\(index)\t\(person)\t\(incomingKinds[index].rawValue)\n"
        }
        return text
    }
}
