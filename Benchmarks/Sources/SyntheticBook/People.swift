/// The people behind the cards: who they are, where they live and work, and the identifiers they own.
enum Sex: Sendable { case male, female }

/// A national US number: area code, exchange, line.
struct Phone: Equatable, Sendable {
    var area: Int
    var exchange: Int
    var line: Int
}

struct Address: Sendable {
    var street: String
    var city: String
    var state: String
    var zip: String
    /// The city's area code, for the home phone of whoever lives there.
    var area: Int
    /// Written in the extended-address field (ADR component 2) instead of the street field, as some forms do.
    var inExtended = false
}

struct Birthday: Equatable, Sendable {
    var year: Int
    var month: Int
    var day: Int
}

/// A company: its switchboard, domain and office are shared by everyone who works there.
struct Company: Sendable {
    var name: String
    var domain: String
    var switchboard: Phone
    var address: Address
    /// How the company forms work addresses: 0 first.last, 1 flast, 2 firstl, 3 first_last.
    var pattern: Int
}

/// A home: the home phone, address and family email are shared by everyone who lives there.
struct Household: Sendable {
    var family: String
    var homePhone: Phone?
    var address: Address?
    var familyEmail: String?
    var members: Int
    let tag: Int
}

struct Person: Sendable {
    let id: Int
    var sex: Sex
    var given: String
    var middle: String?
    var family: String
    var prefix: String?
    var suffix: String?
    var company: Int?
    var title: String?
    var workEmail: String?
    var personalEmails: [String]
    var mobile: Phone?
    var household: Int
    var birthday: Birthday?
    /// The person's unique number, the digits every personal email of theirs ends in.
    let tag: Int
}

/// Where a new person works.
enum Employer {
    case random
    case none
    case at(Int)
    case notAt(Int?)
}

/// The world the books are drawn from, and the allocators that keep identifiers unique.
struct World {
    var random: SplitMix64
    var persons: [Person] = []
    var households: [Household] = []
    var companies: [Company] = []

    private var phoneSerial = 0
    private let phoneOffset: Int
    private let tagModulus: Int
    private let tagOffset: Int
    private var usedWorkEmails = Set<String>()
    private var usedAddresses = Set<String>()
    private let maleNames = ZipfTable(count: Pools.maleGiven.count, offset: 6)
    private let femaleNames = ZipfTable(count: Pools.femaleGiven.count, offset: 6)
    private let familyNames = ZipfTable(count: Pools.family.count, offset: 10)
    private let companyRanks = ZipfTable(count: 300, offset: 3)
    private let cultureRanks: [(male: ZipfTable, female: ZipfTable, family: ZipfTable)] = Pools.cultures.map {
        (
            ZipfTable(count: $0.male.count, offset: 8), ZipfTable(count: $0.female.count, offset: 8),
            ZipfTable(count: $0.family.count, offset: 6)
        )
    }

    init(random: SplitMix64, expectedPeople: Int) {
        self.random = random
        phoneOffset = self.random.below(8_000_000)
        var modulus = 10_000
        while modulus < expectedPeople * 10 { modulus *= 10 }
        tagModulus = modulus
        tagOffset = self.random.below(modulus)
        makeCompanies()
    }

    // MARK: Allocators

    /// A number no other call returns: the seven local digits are a bijection of a serial.
    mutating func newPhone(area: Int) -> Phone {
        while true {
            precondition(phoneSerial < 8_000_000, "out of phone numbers")
            let local = (phoneSerial * 7_654_321 + phoneOffset) % 8_000_000
            phoneSerial += 1
            let exchange = 200 + local / 10_000
            if exchange % 100 == 11 { continue }  // N11 codes are service numbers
            return Phone(area: area, exchange: exchange, line: local % 10_000)
        }
    }

    mutating func newMobile() -> Phone { newPhone(area: random.pick(Pools.mobileAreaCodes)) }

    /// A street address not used by any other household or company.
    mutating func newAddress(city: Int? = nil, office: Bool = false) -> Address {
        let cityIndex = city ?? random.below(Pools.cities.count)
        let place = Pools.cities[cityIndex]
        var attempt = 0
        while true {
            attempt += 1
            var street = "\(random.int(1...9899)) \(random.pick(Pools.streets)) \(random.pick(Pools.streetKinds))"
            if office {
                if random.chance(40) { street += " Suite \(random.int(1...19) * 100)" }
            } else if random.chance(10) || attempt > 20 {
                // A second street line, as Apple and Google keep it.
                street += "\nApt \(random.int(1...40))\(random.pick(["", "A", "B", "C"]))"
            }
            let key = street + "|" + place.name + "|" + place.state
            guard !usedAddresses.contains(key) else { continue }
            usedAddresses.insert(key)
            return Address(
                street: street, city: place.name, state: place.state,
                zip: place.zip3 + Digits.padded(random.below(100), 2), area: random.pick(place.areaCodes))
        }
    }

    private func tag(forIndex index: Int) -> Int { 1 + (index * 7_919 + tagOffset) % tagModulus }

    mutating func birthday(years: ClosedRange<Int>) -> Birthday {
        let year = random.int(years)
        let month = random.int(1...12)
        return Birthday(year: year, month: month, day: random.int(1...World.days(month, year)))
    }

    static func days(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: Companies

    private mutating func makeCompanies() {
        let stems = Pools.companyStems
        var list = [Company]()
        list.reserveCapacity(300)
        for index in 0..<300 {
            let stemIndex = index % stems.count
            let round = index / stems.count
            let stem = stems[stemIndex]
            let industry = Pools.industries[(stemIndex * 7 + round) % Pools.industries.count]
            let legal = Pools.legalForms[(stemIndex + round * 3) % Pools.legalForms.count]
            let base = stem + " " + industry
            let name = legal.isEmpty ? base : legal.hasPrefix(",") ? base + legal : base + " " + legal
            let tld: String
            switch legal {
            case "GmbH", "AG": tld = ".de"
            case "Ltd": tld = ".co.uk"
            default: tld = ["Labs", "Software", "Robotics", "Analytics"].contains(industry) ? ".io" : ".com"
            }
            let domain = Folding.localPart(stem) + Folding.localPart(industry) + tld
            let city = random.below(Pools.cities.count)
            let office = newAddress(city: city, office: true)
            let switchboard = newPhone(area: office.area)
            let roll = random.below(100)
            let pattern = roll < 50 ? 0 : roll < 75 ? 1 : roll < 85 ? 2 : 3
            list.append(
                Company(
                    name: name, domain: domain, switchboard: switchboard, address: office,
                    pattern: pattern))
        }
        // Which company is the big employer depends on the seed.
        random.shuffle(&list)
        companies = list
    }

    /// A work address at the company, unique across everyone (namesakes get a number).
    mutating func newWorkEmail(given: String, family: String, company: Int) -> String {
        let first = Folding.localPart(given)
        let last = Folding.localPart(family)
        let local: String
        switch companies[company].pattern {
        case 0: local = first + "." + last
        case 1: local = String(first.prefix(1)) + last
        case 2: local = first + String(last.prefix(1))
        default: local = first + "_" + last
        }
        let domain = "@" + companies[company].domain
        var candidate = local + domain
        var number = 2
        while usedWorkEmails.contains(candidate) {
            candidate = local + String(number) + domain
            number += 1
        }
        usedWorkEmails.insert(candidate)
        return candidate
    }

    /// A personal address ending in the person's unique number, so no two people ever share one.
    mutating func newPersonalEmail(given: String, family: String, tag: Int, provider: String) -> String {
        let first = Folding.localPart(given)
        let last = Folding.localPart(family)
        let number = String(tag)
        let local: String
        switch random.below(5) {
        case 0, 1: local = first + "." + last + number
        case 2: local = String(first.prefix(1)) + last + number
        case 3: local = first + "_" + last + number
        default: local = last + "." + first + number
        }
        return local + "@" + provider
    }

    // MARK: Households and people

    mutating func drawGiven(_ sex: Sex) -> String {
        sex == .male ? Pools.maleGiven[maleNames.draw(&random)] : Pools.femaleGiven[femaleNames.draw(&random)]
    }

    mutating func drawFamily() -> String { Pools.family[familyNames.draw(&random)] }

    /// A given and family name that go together: a fifth from one culture's pools, the rest from the global ones.
    mutating func drawName(_ sex: Sex) -> (given: String, family: String) {
        var roll = random.below(100)
        for (index, culture) in Pools.cultures.enumerated() {
            guard roll < culture.percent else {
                roll -= culture.percent
                continue
            }
            let ranks = cultureRanks[index]
            let given =
                sex == .male ? culture.male[ranks.male.draw(&random)] : culture.female[ranks.female.draw(&random)]
            return (given, culture.family[ranks.family.draw(&random)])
        }
        return (drawGiven(sex), drawFamily())
    }

    mutating func newHousehold(family: String, phonePercent: Int, addressPercent: Int) -> Int {
        let index = households.count
        var home = Household(family: family, members: 0, tag: tag(forIndex: index))
        if random.chance(addressPercent) { home.address = newAddress() }
        if random.chance(phonePercent) {
            home.homePhone = newPhone(area: home.address?.area ?? random.pick(Pools.mobileAreaCodes))
        }
        households.append(home)
        return index
    }

    /// Gives the household a home phone and address when it lacks them.
    mutating func ensureHome(_ index: Int) {
        if households[index].address == nil { households[index].address = newAddress() }
        if households[index].homePhone == nil {
            households[index].homePhone = newPhone(area: households[index].address?.area ?? 212)
        }
    }

    /// Gives the household a family email such as `smithfamily1234@comcast.net` when it lacks one.
    mutating func ensureFamilyEmail(_ index: Int) {
        guard households[index].familyEmail == nil else { return }
        let name = Folding.localPart(households[index].family)
        let number = String(households[index].tag)
        let local = random.chance(50) ? name + "family" + number : "the" + name + "s" + number
        households[index].familyEmail = local + "@" + random.pick(Pools.familyProviders)
    }

    /// A new person with fresh personal identifiers; the name may be given (namesakes, relatives).
    mutating func newPerson(
        household: Int, sex: Sex? = nil, given: String? = nil, family: String? = nil,
        employer: Employer = .random, maySuffix: Bool = true
    ) -> Int {
        let index = persons.count
        let sex = sex ?? (random.chance(50) ? .male : .female)
        var given = given ?? ""
        var family = family ?? ""
        if given.isEmpty || family.isEmpty {
            let drawn = drawName(sex)
            if given.isEmpty { given = drawn.given }
            if family.isEmpty { family = drawn.family }
        }
        let tag = tag(forIndex: index)
        var person = Person(
            id: index + 1, sex: sex, given: given, middle: nil, family: family, prefix: nil,
            suffix: nil, company: nil, title: nil, workEmail: nil, personalEmails: [],
            mobile: nil, household: household, birthday: nil, tag: tag)
        if random.chance(30) { person.middle = random.pick(Pools.middleInitials) }
        if random.chance(2) { person.prefix = "Dr." }
        if maySuffix && sex == .male && random.chance(3) {
            person.suffix = random.pick(["Jr.", "Jr.", "III", "II", "Sr."])
        }
        switch employer {
        case .none: break
        case .at(let company): person.company = company
        case .random: if random.chance(78) { person.company = companyRanks.draw(&random) }
        case .notAt(let excluded):
            if random.chance(75) {
                var company = companyRanks.draw(&random)
                while company == excluded { company = random.below(companies.count) }
                person.company = company
            }
        }
        if let company = person.company {
            if random.chance(85) { person.title = random.pick(Pools.titles) }
            if random.chance(85) { person.workEmail = newWorkEmail(given: given, family: family, company: company) }
        }
        let roll = random.below(100)
        let count = roll < 15 ? 0 : roll < 70 ? 1 : 2
        var providers = [String]()
        while providers.count < count {
            let provider = random.pick(Pools.personalProviders)
            if !providers.contains(provider) { providers.append(provider) }
        }
        person.personalEmails = providers.map { newPersonalEmail(given: given, family: family, tag: tag, provider: $0) }
        if random.chance(93) { person.mobile = newMobile() }
        if person.personalEmails.isEmpty && person.workEmail == nil && person.mobile == nil {
            person.mobile = newMobile()
        }
        if random.chance(70) { person.birthday = birthday(years: 1945...2004) }
        households[household].members += 1
        persons.append(person)
        return index
    }

    /// Gives the person a work email at their company when they lack one.
    mutating func ensureWorkEmail(_ index: Int) {
        guard persons[index].workEmail == nil, let company = persons[index].company else { return }
        persons[index].workEmail = newWorkEmail(
            given: persons[index].given, family: persons[index].family,
            company: company)
    }
}
