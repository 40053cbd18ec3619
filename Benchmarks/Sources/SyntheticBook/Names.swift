/// The fixed pools the generator draws from. Order matters: rank 0 is the most common under `ZipfTable`.
enum Pools {
    /// Male given names, most common first (so "John" and "James" recur).
    static let maleGiven: [String] = [
        "James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Christopher",
        "Charles", "Daniel", "Matthew", "Anthony", "Mark", "José", "Steven", "Andrew", "Kevin", "Brian",
        "Edward", "Jason", "Ryan", "Juan", "Nicholas", "Eric", "Jonathan", "Benjamin", "Samuel", "Alexander",
        "Patrick", "Carlos", "Luis", "Miguel", "Wei", "Rahul", "Arjun", "Sanjay", "Chinedu", "Emeka",
        "Oluwaseun", "Tunde", "Ahmed", "Mohammed", "Omar", "Hiroshi", "Kenji", "Min-jun", "Jürgen", "Søren",
        "François", "André", "Björn", "Stefan", "Lukas", "Pierre", "Giovanni", "Marco", "Luca", "Sean",
        "Liam", "Noah", "Ethan", "Mason", "Logan", "Lucas", "Aiden", "Diego", "Raúl", "Héctor",
        "Jesús", "Ángel", "Tomás", "Dmitri", "Ivan", "Piotr", "Łukasz", "Hans", "Klaus", "Olaf",
        "Xavier", "Jian", "Hao", "Vikram", "Kwame", "Declan", "Mateo", "Joaquín",
    ]

    /// Female given names, most common first (so "Mary" and "Maria" recur).
    static let femaleGiven: [String] = [
        "Mary", "Maria", "Jennifer", "Patricia", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah",
        "Karen", "Nancy", "Margaret", "Lisa", "Katherine", "Emily", "Michelle", "Laura", "Amanda", "Melissa",
        "Rebecca", "Stephanie", "Olivia", "Emma", "Sophia", "Ana", "Carmen", "Sofía", "Lucía", "Isabel",
        "Mónica", "Inés", "Renée", "Zoë", "Chloé", "Émilie", "Amélie", "Hélène", "Léa", "Françoise",
        "Ursula", "Greta", "Ingrid", "Sigrid", "Åsa", "Mei", "Li Na", "Xiu", "Yan", "Priya",
        "Ananya", "Deepika", "Aishwarya", "Kavya", "Ngozi", "Adaeze", "Chiamaka", "Folake", "Aisha", "Fatima",
        "Yuki", "Sakura", "Ji-woo", "Siobhán", "Niamh", "Aoife", "Mary Ann", "Anne-Marie", "Beatriz", "Joana",
        "Małgorzata", "Agnieszka", "Olga", "Natasha", "Grace", "Hannah", "Abigail", "Madison", "Ava", "Mia",
        "Chloe", "Zoe", "Dagný", "Björk",
    ]

    /// Family names, most common first; English, Spanish, German, French, Chinese, Indian, Nigerian and more.
    static let family: [String] = [
        "Smith", "Johnson", "Garcia", "Williams", "Brown", "Jones", "Miller", "Davis", "Rodriguez", "Martinez",
        "Nguyen", "Lee", "Patel", "Wang", "Kim", "Müller", "Hernández", "Lopez", "Gonzalez", "Wilson",
        "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Li", "Zhang", "Singh", "Sharma",
        "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen",
        "King", "Wright", "Scott", "Torres", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
        "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Chen", "Liu", "Schmidt", "Schneider",
        "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Schäfer", "Koch", "Bauer",
        "Bernard", "Dubois", "Durand", "Leroy", "Moreau", "Lefèvre", "Girard", "Fontaine", "Rousseau", "Petit",
        "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma", "Zhu", "Hu",
        "Kumar", "Gupta", "Shah", "Reddy", "Iyer", "Nair", "Rao", "Das", "Mehta", "Joshi",
        "Okafor", "Adeyemi", "Okonkwo", "Eze", "Adebayo", "Nwosu", "Ogunleye", "Balogun", "Chukwu", "Obi",
        "Abubakar", "Bello", "Ibrahim", "Olawale", "O'Brien", "O'Connor", "McCarthy", "Murphy", "Kelly", "Byrne",
        "van der Berg", "de Vries", "Jansen", "Johansson", "Andersson", "Nielsen", "Hansen", "Søndergaard",
        "Kowalski", "Nowak", "Wiśniewski", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano",
        "Sato", "Suzuki", "Takahashi", "Tanaka", "Park", "Choi", "Tran", "Pham", "Le", "Gómez",
        "Díaz", "Pérez", "Sánchez", "Ramírez", "Núñez", "Muñoz", "Jiménez", "Álvarez", "Castillo", "Ortiz",
        "Gonçalves", "Conceição", "Silva", "Santos", "Oliveira", "De la Cruz", "Evans", "Turner", "Phillips", "Parker",
        "Collins", "Edwards", "Stewart", "Morris", "Murray", "Cook", "Rogers", "Morgan", "Cooper", "Peterson",
        "Bailey", "Reed", "Cox", "Howard", "Ward", "Brooks", "Watson", "Gray", "James", "Bennett",
        "Wood", "Barnes", "Ross", "Henderson", "Coleman", "Jenkins", "Perry", "Powell", "Long", "Patterson",
        "Hughes", "Washington", "Butler", "Simmons", "Foster", "Bryant", "Alexander", "Russell", "Griffin", "Hayes",
        "Smith-Jones", "Ó Súilleabháin", "Haddad", "Khan", "Cohen", "Levi", "Popescu", "Horvat", "Novák", "Yılmaz",
    ]

    /// A naming culture: people drawn from it get a given and family name that go together.
    struct Culture: Sendable {
        /// Percent of people drawn from this culture rather than from the global pools.
        let percent: Int
        let male: [String]
        let female: [String]
        let family: [String]
    }

    /// Cultures, most common names first; about a fifth of people come from one of them.
    static let cultures: [Culture] = [
        Culture(
            percent: 7,
            male: [
                "José", "Juan", "Carlos", "Luis", "Miguel", "Diego", "Raúl", "Héctor", "Jesús", "Ángel",
                "Tomás", "Mateo", "Joaquín",
            ],
            female: ["Maria", "Ana", "Carmen", "Sofía", "Lucía", "Isabel", "Mónica", "Inés", "Beatriz", "Joana"],
            family: [
                "Garcia", "Rodriguez", "Martinez", "Hernández", "Lopez", "Gonzalez", "Sanchez", "Ramirez",
                "Torres", "Flores", "Rivera", "Gómez", "Díaz", "Pérez", "Núñez", "Muñoz", "Jiménez",
                "Álvarez", "Castillo", "Ortiz", "De la Cruz",
            ]),
        Culture(
            percent: 4, male: ["Wei", "Jian", "Hao"], female: ["Mei", "Li Na", "Xiu", "Yan"],
            family: [
                "Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun",
                "Ma", "Zhu", "Hu",
            ]),
        Culture(
            percent: 4, male: ["Rahul", "Arjun", "Sanjay", "Vikram"],
            female: ["Priya", "Ananya", "Deepika", "Aishwarya", "Kavya"],
            family: [
                "Patel", "Singh", "Sharma", "Kumar", "Gupta", "Shah", "Reddy", "Iyer", "Nair", "Rao", "Das",
                "Mehta", "Joshi",
            ]),
        Culture(
            percent: 2, male: ["Chinedu", "Emeka", "Oluwaseun", "Tunde"],
            female: ["Ngozi", "Adaeze", "Chiamaka", "Folake", "Aisha"],
            family: [
                "Okafor", "Adeyemi", "Okonkwo", "Eze", "Adebayo", "Nwosu", "Ogunleye", "Balogun", "Chukwu",
                "Obi", "Abubakar", "Bello", "Ibrahim", "Olawale",
            ]),
        Culture(
            percent: 3, male: ["Jürgen", "Stefan", "Lukas", "Hans", "Klaus"],
            female: ["Ursula", "Greta", "Ingrid", "Sigrid"],
            family: [
                "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz",
                "Hoffmann", "Schäfer", "Koch", "Bauer",
            ]),
        Culture(
            percent: 2, male: ["François", "André", "Pierre"],
            female: ["Renée", "Chloé", "Émilie", "Amélie", "Hélène", "Léa", "Françoise"],
            family: [
                "Martin", "Bernard", "Dubois", "Durand", "Leroy", "Moreau", "Lefèvre", "Girard", "Fontaine",
                "Rousseau", "Petit",
            ]),
    ]

    /// Common nicknames, only for given names that have one.
    static let nicknames: [String: String] = [
        "Robert": "Bob", "William": "Bill", "Elizabeth": "Liz", "James": "Jim", "Katherine": "Kate",
        "Michael": "Mike", "Thomas": "Tom", "Richard": "Rick", "Margaret": "Peggy", "Anthony": "Tony",
        "Alexander": "Alex", "Christopher": "Chris", "Jennifer": "Jen", "Daniel": "Dan", "Joseph": "Joe",
        "Samuel": "Sam", "Matthew": "Matt", "Nicholas": "Nick", "Steven": "Steve", "Andrew": "Andy",
        "Benjamin": "Ben", "Patricia": "Pat", "Susan": "Sue", "David": "Dave", "Edward": "Ed",
        "Jonathan": "Jon", "Rebecca": "Becky", "Abigail": "Abby", "Charles": "Charlie",
    ]

    static let middleInitials: [String] = [
        "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "P", "R", "S", "T", "W",
    ]

    /// Stems of company names; combined with an industry word and a legal form into 300 companies.
    static let companyStems: [String] = [
        "Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Wonka", "Tyrell",
        "Cyberdyne", "Soylent", "Oceanic", "Monarch", "Aperture", "Northwind", "Contoso", "Fabrikam", "Tailspin",
        "Woodgrove", "Adventure Works", "Blue Yonder", "Litware", "Proseware", "Wingtip", "Alpine", "Summit",
        "Pinnacle", "Cascade", "Evergreen", "Redwood", "Silverline", "Brightpath", "Keystone", "Lakeside",
        "Harbor", "Riverbend", "Ironwood", "Granite", "Copperleaf", "Bluewater", "Sunrise", "Horizon",
        "Meridian", "Vertex", "Quantum", "Nimbus", "Helix", "Orion", "Polaris", "Zenith", "Apex", "Atlas",
        "Beacon", "Crescent", "Delta", "Echo", "Falcon", "Gemini", "Halcyon", "Indigo", "Juniper", "Kestrel",
        "Lumen", "Magnolia", "Nova", "Onyx", "Phoenix", "Quartz", "Raven", "Sterling", "Trident", "Unity",
        "Vista", "Willow", "Xenon", "Yellowstone", "Zephyr", "Müller & Söhne", "Société Lumière", "Nørrebro",
        "Café Olé", "Smith, Jones & Partners", "Baker, Lee & Co", "O'Neill", "Ashford", "Brambleton", "Clearwater",
        "Driftwood", "Emberly", "Foxhollow", "Glenmore", "Hawthorne", "Inkwell", "Jadestone", "Kingsbridge",
        "Larkspur", "Mapleton", "Netherfield", "Oakhurst",
    ]

    static let industries: [String] = [
        "Industries", "Systems", "Logistics", "Consulting", "Labs", "Partners", "Foods", "Analytics", "Health",
        "Media", "Capital", "Software", "Energy", "Robotics", "Design", "Holdings", "Group",
    ]

    static let legalForms: [String] = ["Inc.", "LLC", "GmbH", "Ltd", "Corp.", ", Inc.", "", "Co.", "AG", "Inc."]

    static let titles: [String] = [
        "Software Engineer", "Senior Software Engineer", "Product Manager", "VP, Sales", "Director of Marketing",
        "Accountant", "Registered Nurse", "Chief Executive Officer", "R&D Lead", "Sales Representative",
        "HR Business Partner", "Head of Operations", "Data Scientist", "Office Manager", "Paralegal",
        "Attorney", "Consultant", "Senior Consultant", "Project Manager", "Customer Success Manager",
        "Graphic Designer", "UX Researcher", "Financial Analyst", "Controller", "CFO", "CTO", "Engineering Manager",
        "Recruiter", "Account Executive", "Support Engineer", "Technician", "Pharmacist", "Teacher",
        "Architect", "Site Reliability Engineer", "Marketing Coordinator", "Executive Assistant",
        "Director, Business Development", "Principal Engineer", "Intern",
    ]

    static let streets: [String] = [
        "Main", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Church", "High",
        "Sunset", "Lincoln", "Jefferson", "Madison", "Franklin", "Chestnut", "Walnut", "Spring", "River", "Forest",
        "Meadow", "Highland", "Ridge", "Valley", "Cherry", "Willow", "Birch", "Dogwood", "Magnolia", "Mill",
        "Center", "Broad", "Market", "Union", "Water", "Bridge", "Front", "King", "Queen", "Prospect",
        "Greenwood", "Lakeview", "Fairview", "Woodland", "Sycamore", "Hickory", "Laurel", "Poplar", "Aspen",
        "Spruce", "Harbor", "Bay", "Ocean", "Cypress", "Colonial", "Academy", "College", "Martin Luther King Jr.",
    ]

    static let streetKinds: [String] = ["St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Ct", "Way", "Pl"]

    /// A US city: name, state, the first three ZIP digits and its area codes.
    struct City: Sendable {
        let name: String
        let state: String
        let zip3: String
        let areaCodes: [Int]
    }

    static let cities: [City] = [
        City(name: "Springfield", state: "IL", zip3: "627", areaCodes: [217]),
        City(name: "Austin", state: "TX", zip3: "787", areaCodes: [512, 737]),
        City(name: "Portland", state: "OR", zip3: "972", areaCodes: [503, 971]),
        City(name: "Denver", state: "CO", zip3: "802", areaCodes: [303, 720]),
        City(name: "Seattle", state: "WA", zip3: "981", areaCodes: [206]),
        City(name: "Boston", state: "MA", zip3: "021", areaCodes: [617, 857]),
        City(name: "Chicago", state: "IL", zip3: "606", areaCodes: [312, 773]),
        City(name: "San Jose", state: "CA", zip3: "951", areaCodes: [408, 669]),
        City(name: "Brooklyn", state: "NY", zip3: "112", areaCodes: [718, 347]),
        City(name: "Miami", state: "FL", zip3: "331", areaCodes: [305, 786]),
        City(name: "Atlanta", state: "GA", zip3: "303", areaCodes: [404, 470]),
        City(name: "Phoenix", state: "AZ", zip3: "850", areaCodes: [602, 480]),
        City(name: "San Diego", state: "CA", zip3: "921", areaCodes: [619, 858]),
        City(name: "Minneapolis", state: "MN", zip3: "554", areaCodes: [612]),
        City(name: "Raleigh", state: "NC", zip3: "276", areaCodes: [919, 984]),
        City(name: "Nashville", state: "TN", zip3: "372", areaCodes: [615]),
        City(name: "Columbus", state: "OH", zip3: "432", areaCodes: [614]),
        City(name: "Pittsburgh", state: "PA", zip3: "152", areaCodes: [412]),
        City(name: "Salt Lake City", state: "UT", zip3: "841", areaCodes: [801]),
        City(name: "Kansas City", state: "MO", zip3: "641", areaCodes: [816]),
        City(name: "St. Louis", state: "MO", zip3: "631", areaCodes: [314]),
        City(name: "Madison", state: "WI", zip3: "537", areaCodes: [608]),
        City(name: "Albuquerque", state: "NM", zip3: "871", areaCodes: [505]),
        City(name: "Boise", state: "ID", zip3: "837", areaCodes: [208]),
        City(name: "Anchorage", state: "AK", zip3: "995", areaCodes: [907]),
        City(name: "Honolulu", state: "HI", zip3: "968", areaCodes: [808]),
        City(name: "Burlington", state: "VT", zip3: "054", areaCodes: [802]),
        City(name: "Portland", state: "ME", zip3: "041", areaCodes: [207]),
        City(name: "Coeur d'Alene", state: "ID", zip3: "838", areaCodes: [208]),
        City(name: "Española", state: "NM", zip3: "875", areaCodes: [505]),
        City(name: "La Cañada Flintridge", state: "CA", zip3: "910", areaCodes: [818]),
        City(name: "Ann Arbor", state: "MI", zip3: "481", areaCodes: [734]),
        City(name: "Cambridge", state: "MA", zip3: "021", areaCodes: [617]),
        City(name: "Palo Alto", state: "CA", zip3: "943", areaCodes: [650]),
        City(name: "Sacramento", state: "CA", zip3: "958", areaCodes: [916]),
        City(name: "Charlotte", state: "NC", zip3: "282", areaCodes: [704, 980]),
        City(name: "Tampa", state: "FL", zip3: "336", areaCodes: [813]),
        City(name: "New Orleans", state: "LA", zip3: "701", areaCodes: [504]),
        City(name: "Baltimore", state: "MD", zip3: "212", areaCodes: [410, 443]),
        City(name: "Richmond", state: "VA", zip3: "232", areaCodes: [804]),
        City(name: "Omaha", state: "NE", zip3: "681", areaCodes: [402]),
    ]

    /// Area codes for mobile numbers, which need not match the home city.
    static let mobileAreaCodes: [Int] = [
        201, 202, 206, 212, 213, 214, 305, 310, 312, 347, 404, 415, 469, 503, 512, 602, 617, 646, 702, 713,
        718, 720, 773, 786, 818, 832, 917, 929, 949, 972,
    ]

    /// Personal email providers; the local part always ends in the person's unique number.
    static let personalProviders: [String] = [
        "gmail.com", "gmail.com", "gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com",
        "aol.com", "gmx.de", "web.de", "orange.fr", "yahoo.co.uk", "me.com",
    ]

    /// Providers used only for family (household) addresses, so they never equal a personal address.
    static let familyProviders: [String] = ["comcast.net", "verizon.net", "att.net", "cox.net", "sbcglobal.net"]

    /// The provider used only for the extra addresses a duplicate adds.
    static let extraProvider = "proton.me"

    static let notes: [String] = [
        "Met at the 2019 conference; likes tennis, golf and sailing.",
        "Gate code: 4512\nBuzz twice, then wait.",
        "Prefers email, not phone.",
        "Shared drive: \\\\fs01\\team\\contacts",
        "Kids: Emma, Noah; dog: Biscuit",
        "Allergic to peanuts",
        "Referred by a colleague from the Denver office.",
        "Spanish speaker — habla español",
        "Birthday party every June 🎂 (bring cake)",
        "Old address: 12 Elm St, Apt 3; moved in 2021",
        "Call after 5pm, weekdays only.\nWeekends: text first.",
        "Emergency contact for the soccer team",
        "Invoice questions go to accounts payable; cc: finance",
        "Loves jazz; plays the saxophone in a quartet called \"Blue Notes\".",
        "Notes from the kickoff meeting:\n- budget approved\n- next review in Q3\n- send the slides, the minutes and the contract draft before Friday",
        "Ski trip 2023 — Zermatt, Schweiz; stayed at Hôtel Mont Cervin",
        "Path to the scan: C:\\Users\\scan\\2022\\receipt.pdf",
        "Vegetarian",
        "Speaks Mandarin 普通话 and Cantonese 廣東話",
        "Knows everyone at the marina",
    ]

    static let extraNotes: [String] = [
        "Synced from the work phone.",
        "Updated after the reunion; new number below.",
        "Imported from Google Contacts",
        "Met again at the trade fair, booth 12B; follow up, please.",
        "Prefers WhatsApp.\nDo not call before 9am.",
    ]

    static let categories: [String] = [
        "Work", "Family", "Friends", "VIP", "Clients", "Soccer Team", "Book Club", "Neighbours", "School, PTA",
        "Suppliers",
    ]
}

/// Accent folding and the email-local-part form of names, by table (no Foundation, same on every platform).
enum Folding {
    private static let table: [Character: String] = [
        "à": "a", "á": "a", "â": "a", "ã": "a", "ä": "a", "å": "a", "ą": "a", "æ": "ae",
        "ç": "c", "ć": "c", "č": "c", "è": "e", "é": "e", "ê": "e", "ë": "e", "ę": "e",
        "ì": "i", "í": "i", "î": "i", "ï": "i", "ı": "i", "ñ": "n", "ń": "n",
        "ò": "o", "ó": "o", "ô": "o", "õ": "o", "ö": "o", "ø": "o", "ù": "u", "ú": "u", "û": "u", "ü": "u",
        "ý": "y", "ÿ": "y", "ß": "ss", "ł": "l", "ś": "s", "š": "s", "ş": "s", "ż": "z", "ź": "z", "ž": "z",
        "ř": "r", "ğ": "g", "ð": "d", "þ": "th",
        "À": "A", "Á": "A", "Â": "A", "Ã": "A", "Ä": "A", "Å": "A", "Æ": "AE", "Ç": "C", "Č": "C",
        "È": "E", "É": "E", "Ê": "E", "Ë": "E", "Ì": "I", "Í": "I", "Î": "I", "Ï": "I", "Ñ": "N",
        "Ò": "O", "Ó": "O", "Ô": "O", "Õ": "O", "Ö": "O", "Ø": "O", "Ù": "U", "Ú": "U", "Û": "U", "Ü": "U",
        "Ý": "Y", "Ł": "L", "Ś": "S", "Š": "S", "Ż": "Z", "Ž": "Z",
    ]

    /// Drops diacritics: "José" -> "Jose", "Søren" -> "Soren"; other text is unchanged.
    static func dropAccents(_ text: String) -> String {
        guard !isASCII(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if let plain = table[character] { out += plain } else { out.append(character) }
        }
        return out
    }

    /// Lower-case ASCII letters and digits only: "O'Brien" -> "obrien", "De la Cruz" -> "delacruz".
    static func localPart(_ text: String) -> String {
        var out = ""
        for scalar in dropAccents(text).unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: out.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            case 0x61...0x7A, 0x30...0x39: out.unicodeScalars.append(scalar)
            default: continue
            }
        }
        return out
    }

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
}
